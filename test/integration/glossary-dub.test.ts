import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { countingSpeech, countingTranslator } from '../helpers/engine-counters';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';

// A pinned glossary on the real stack (docs/glossaries.md): a project with supplied English text
// is dubbed by the real apertium into Spanish, Catalan and Portuguese, and every term comes out as
// the glossary says in every caption; the voice says the pronunciation while the caption shows the
// term. A new version changing one Spanish translation stales exactly the Spanish line holding
// it, and a regeneration translates and speaks only that line again.

const CPS = 10;
const suite = dubbingSuite('glossary-dub-', 'My Rice Cooker Pro is ready. The slow cooker is hot. Nguyen will call tomorrow.', { seconds: 12 });
const SCRIPT = ['My rice cooker pro is ready.', 'The slow cooker is hot.', 'Nguyen will call tomorrow.'];
const TRANSCRIPT = {
  format: 'json',
  content: JSON.stringify(SCRIPT.map((text, i) => ({ start_seconds: 0.3 + i * 4, end_seconds: 2.8 + i * 4, text }))),
};
const ENTRIES = [
  { term: 'Rice Cooker Pro', keep: true },
  { term: 'slow cooker', translations: { es_es: 'olla lenta', ca_es: 'olla lenta', pt_pt: 'panela lenta' } },
  { term: 'Nguyen', keep: true, pronunciations: { es_es: 'Guin' } },
];
const LOCALES = ['es_es', 'ca_es', 'pt_pt'];

const call = (tenant: TestTenant, method: string, path: string, body?: unknown) =>
  request(suite.api.baseUrl, method, path, { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body });
const vttOf = async (id: string, locale: string) => {
  const row = await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).where('locale', '=', locale).where('format', '=', 'vtt').executeTakeFirstOrThrow();
  return readFileSync(await suite.api.blobStore.toLocalFile(row.storage_key, suite.dir), 'utf8');
};
const lineRows = (id: string, locale: string) =>
  suite.api.db.selectFrom('language_segments').select(['id', 'text', 'status', 'clip_key']).where('project_id', '=', id).where('locale', '=', locale).orderBy('start_seconds').execute();

describe('a project with a pinned glossary', () => {
  let tenant: TestTenant;
  let id: string;
  let glossaryId: string;

  it('renders every term as the glossary says in every language, and speaks the pronunciation', async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const glossary = await call(tenant, 'POST', '/v1/glossaries', { name: 'Kitchen', source_locale: 'en_us', entries: ENTRIES });
    expect(glossary.status).toBe(201);
    glossaryId = glossary.body.data.id;
    const counting = countingSpeech();
    await suite.worker.use({ tts: counting.tts });
    const created = await createProject(
      suite.api,
      tenant,
      projectBody({
        target_locales: LOCALES,
        source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length },
        transcript: TRANSCRIPT,
        glossary: { id: glossaryId },
      }),
    );
    expect(created.status).toBe(201);
    id = created.body.data.id;
    expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
    const done = await waitForProjectView(suite.api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    expect(done.status).toBe('completed');
    expect(done.glossary).toEqual({ id: glossaryId, version: 1 });

    const expected: Record<string, string[]> = {
      es_es: ['Rice Cooker Pro', 'olla lenta', 'Nguyen'],
      ca_es: ['Rice Cooker Pro', 'olla lenta', 'Nguyen'],
      pt_pt: ['Rice Cooker Pro', 'panela lenta', 'Nguyen'],
    };
    for (const locale of LOCALES) {
      const lines = await lineRows(id, locale);
      expect(lines).toHaveLength(3);
      lines.forEach((line, i) => expect(line.text).toContain(expected[locale]![i]!));
      const vtt = await vttOf(id, locale);
      for (const term of expected[locale]!) expect(vtt).toContain(term);
      // No placeholder leaks into what a viewer reads.
      expect(vtt).not.toMatch(/zxq\d/);
    }
    // Spanish says "Guin" where its caption shows "Nguyen"; the other languages say the term.
    expect(counting.spoken.filter((s) => s.includes('Guin'))).toHaveLength(1);
    expect(counting.spoken.filter((s) => s.includes('Nguyen'))).toHaveLength(2);
  }, 300_000);

  it('a new version of one Spanish translation stales only that line, and the regeneration redoes only it', async () => {
    const changed = ENTRIES.map((e) => (e.term === 'slow cooker' ? { ...e, translations: { ...e.translations, es_es: 'olla de cocción lenta' } } : e));
    const updated = await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, { name: 'Kitchen', entries: changed });
    expect(updated.status).toBe(200);
    expect(updated.body.data.version).toBe(2);
    // Nothing changes by itself: the project still pins version 1.
    expect((await lineRows(id, 'es_es')).every((l) => l.status === 'current')).toBe(true);

    const pinned = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId, version: 2 });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data.stale_lines).toEqual({ es_es: 1, ca_es: 0, pt_pt: 0 });
    const before = await lineRows(id, 'es_es');
    expect(before.map((l) => l.status)).toEqual(['current', 'stale', 'current']);

    const counting = countingSpeech();
    const translating = countingTranslator();
    await suite.worker.use({ tts: counting.tts, translator: translating.translator });
    const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID(), 'es_es');
    expect(res.status).toBe(200);
    expect(res.body.data.regeneration.segments).toBe(1);
    await waitForProjectView(suite.api, tenant, id, 'revision 2', (p) => p.languages.find((l: any) => l.locale === 'es_es')?.revision === 2, 120_000);
    expect(translating.calls.map((c) => c.texts)).toEqual([['The slow cooker is hot.']]);
    expect(counting.spoken).toHaveLength(1);
    expect(counting.spoken[0]).toContain('olla de cocción lenta');
    const after = await lineRows(id, 'es_es');
    expect(after[1]!.text).toContain('olla de cocción lenta');
    expect(after.map((l) => l.status)).toEqual(['current', 'current', 'current']);
    expect([after[0]!.clip_key, after[2]!.clip_key]).toEqual([before[0]!.clip_key, before[2]!.clip_key]);
    expect(await vttOf(id, 'es_es')).toContain('olla de cocción lenta');
  }, 300_000);
  it('a new pronunciation alone stales that line, and the regeneration says it the new way (the words unchanged)', async () => {
    const changed = ENTRIES.map((e) =>
      e.term === 'slow cooker' ? { ...e, translations: { ...e.translations, es_es: 'olla de cocción lenta' } } : e.term === 'Nguyen' ? { ...e, pronunciations: { es_es: 'Nuyen' } } : e,
    );
    expect((await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, { name: 'Kitchen', entries: changed })).body.data.version).toBe(3);
    const pinned = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId, version: 3 });
    expect(pinned.body.data.stale_lines).toEqual({ es_es: 1, ca_es: 0, pt_pt: 0 });
    const before = await lineRows(id, 'es_es');
    expect(before.map((l) => l.status)).toEqual(['current', 'current', 'stale']);

    const counting = countingSpeech();
    await suite.worker.use({ tts: counting.tts });
    const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID(), 'es_es');
    expect(res.status).toBe(200);
    // Quoted and billed: the words are the same, but the clip no longer says them as the glossary does.
    expect(res.body.data.regeneration.segments).toBe(1);
    await waitForProjectView(suite.api, tenant, id, 'revision 3', (p) => p.languages.find((l: any) => l.locale === 'es_es')?.revision === 3, 120_000);
    expect(counting.spoken).toHaveLength(1);
    expect(counting.spoken[0]).toContain('Nuyen');
    const after = await lineRows(id, 'es_es');
    expect(after[2]!.text).toBe(before[2]!.text);
    expect(after[2]!.clip_key).not.toBe(before[2]!.clip_key);
  }, 300_000);
});
