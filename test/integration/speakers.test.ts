import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { listLanguageSegments } from '../../src/db/language-segments';
import { countingSpeech } from '../helpers/engine-counters';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request } from '../helpers/test-api';

// Speakers on the real stack (docs/speakers.md): the API over HTTP, a real worker with the real
// engines, PostgreSQL, Temporal and the blob store. A supplied WebVTT names two speakers with
// voice spans; each gets a voice of their own in every language; moving one line to the other
// speaker, or giving a speaker another voice, speaks again and bills only their lines; a merge
// moves every line; unknown and other tenants' speakers are the same 404; bad input writes nothing.

const CPS = 10;
const suite = dubbingSuite('speakers-', 'Good morning. The weather is nice today. The house is quiet. See you tomorrow.', { seconds: 14 });
const SCRIPT = [
  'WEBVTT',
  '',
  '00:00:00.300 --> 00:00:02.300',
  '<v Ana>Good morning.',
  '',
  '00:00:04.000 --> 00:00:06.000',
  '<v Ben>The weather is nice today.',
  '',
  '00:00:08.000 --> 00:00:10.000',
  '<v Ana>The house is <i>quiet</i>.',
  '',
  '00:00:11.500 --> 00:00:13.500',
  '<v Ben>See you tomorrow.',
  '',
].join('\n');

const call = (tenant: TestTenant, method: string, path: string, body?: unknown) => request(suite.api.baseUrl, method, path, { headers: bearer(tenant.key), body });
const speakersOf = async (tenant: TestTenant, id: string) => (await call(tenant, 'GET', `/v1/dubbing/projects/${id}/speakers`)).body.data as any[];
const speakerRows = (id: string) => suite.api.db.selectFrom('project_speakers').selectAll().where('project_id', '=', id).orderBy('position').execute();
const voiceRows = (id: string) =>
  suite.api.db
    .selectFrom('speaker_voices as v')
    .innerJoin('project_speakers as s', 's.id', 'v.speaker_id')
    .selectAll('v')
    .where('s.project_id', '=', id)
    .orderBy('v.speaker_id')
    .orderBy('v.locale')
    .execute();
const segmentRows = (id: string) => suite.api.db.selectFrom('source_segments').select(['id', 'speaker_id', 'text']).where('project_id', '=', id).orderBy('position').execute();
const vttOf = async (id: string, locale: string) => {
  const row = await suite.api.db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).where('locale', '=', locale).where('format', '=', 'vtt').executeTakeFirstOrThrow();
  return readFileSync(await suite.api.blobStore.toLocalFile(row.storage_key, suite.dir), 'utf8');
};
const ledger = (workspaceId: string) => suite.api.db.selectFrom('credit_ledger').select(['reference', 'amount']).where('workspace_id', '=', workspaceId).orderBy('created_at').execute();

async function regenerate(tenant: TestTenant, id: string, locale: string, revision: number) {
  const res = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID(), locale);
  expect(res.status).toBe(200);
  await waitForProjectView(suite.api, tenant, id, `revision ${revision}`, (p) => p.languages.find((l: any) => l.locale === locale)?.revision === revision, 120_000);
  return res.body.data.regeneration;
}

describe('a supplied WebVTT with two voices', () => {
  let tenant: TestTenant;
  let id: string;
  let ana: any;
  let ben: any;

  it('makes two speakers with those labels, each with a voice of their own in every language; the captions carry the voice spans, never the markup', async () => {
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    await suite.worker.use();
    const created = await createProject(
      suite.api,
      tenant,
      projectBody({ target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length }, transcript: { format: 'vtt', content: SCRIPT } }),
    );
    expect(created.status).toBe(201);
    id = created.body.data.id;
    expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
    const done = await waitForProjectView(suite.api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    expect(done.status).toBe('completed');

    [ana, ben] = await speakersOf(tenant, id);
    expect([ana.label, ben.label]).toEqual(['Ana', 'Ben']);
    expect([ana.segments, ben.segments]).toEqual([2, 2]);
    // Their pitch was measured from the source's audio, for choosing their voices (the clip's one
    // sentence is heard in Ana's first cue; Ben's times are silent, too little voiced speech to say).
    expect([ana.median_pitch_hz, ben.median_pitch_hz]).toEqual([expect.any(Number), null]);
    expect((await segmentRows(id)).map((s) => s.text)).toEqual(['Good morning.', 'The weather is nice today.', 'The house is quiet.', 'See you tomorrow.']);
    for (const locale of ['es_es', 'ca_es']) {
      expect(ana.voices[locale].voice).toEqual(expect.any(String));
      expect(ben.voices[locale].voice).not.toBe(ana.voices[locale].voice);
      // Each line was spoken with its speaker's voice.
      const lines = await listLanguageSegments(suite.api.db, id, locale);
      expect(lines.map((l) => l.rendered_voice)).toEqual([ana, ben, ana, ben].map((s) => s.voices[locale].voice));
      const vtt = await vttOf(id, locale);
      expect(vtt.match(/<v Ana>/g)).toHaveLength(2);
      expect(vtt.match(/<v Ben>/g)).toHaveLength(2);
      expect(vtt).not.toContain('&lt;');
      expect(vtt).not.toContain('<i>');
    }
    expect(done.languages.find((l: any) => l.locale === 'es_es').speaker_voices.map((v: any) => v.label)).toEqual(['Ana', 'Ben']);
    expect(done.speakers.items.map((s: any) => s.label)).toEqual(['Ana', 'Ben']);
  }, 240_000);

  it("moving one line to the other speaker quotes and regenerates only that line, with the new speaker's voice, and the VTT follows", async () => {
    const segments = await segmentRows(id);
    const moved = await call(tenant, 'PATCH', `/v1/dubbing/projects/${id}/transcript/segments/${segments[1]!.id}`, { speaker_id: ana.id });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ id: segments[1]!.id, speaker_id: ana.id, text: 'The weather is nice today.' });
    const quote = await postRegenerate(suite.api, tenant, id, { max_billable_seconds: 60 }, undefined, 'es_es');
    expect(quote.body.data.regeneration).toMatchObject({ segments: 1, billable_seconds: 2 });
    const counting = countingSpeech();
    await suite.worker.use({ tts: counting.tts });
    const before = await ledger(tenant.workspace.id);
    expect(await regenerate(tenant, id, 'es_es', 2)).toMatchObject({ segments: 1, billable_seconds: 2, charged_now_seconds: 2 });
    expect(counting.voices).toEqual([ana.voices.es_es.voice]);
    expect(counting.spoken).toHaveLength(1);
    const charged = (await ledger(tenant.workspace.id)).slice(before.length);
    expect(charged.map((e) => e.amount)).toEqual([2 * CPS]);
    const vtt = await vttOf(id, 'es_es');
    expect(vtt.match(/<v Ana>/g)).toHaveLength(3);
    expect(vtt.match(/<v Ben>/g)).toHaveLength(1);
  }, 180_000);

  it("another voice for one speaker speaks again and bills only that speaker's lines", async () => {
    const voices = (await request(suite.api.baseUrl, 'GET', '/v1/dubbing/voices?locale=ca_es')).body.data.map((v: any) => v.id);
    const other = voices.find((v: string) => v !== ben.voices.ca_es.voice && v !== ana.voices.ca_es.voice) ?? voices.find((v: string) => v !== ben.voices.ca_es.voice);
    const patched = await call(tenant, 'PATCH', `/v1/dubbing/projects/${id}/speakers/${ben.id}`, { voices: { ca_es: other } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.voices.ca_es).toEqual({ voice: other, chosen_by: 'customer', variant: false });
    const counting = countingSpeech();
    await suite.worker.use({ tts: counting.tts });
    // Catalan speaks again line 4 (Ben's, in his new voice) and line 2 (moved to Ana above, a move of
    // the source segment that every language follows, not regenerated in Catalan yet): no other.
    const regenerated = await regenerate(tenant, id, 'ca_es', 2);
    expect(counting.voices.sort()).toEqual([ana.voices.ca_es.voice, other].sort());
    // Their seconds (2 s each) are what was charged.
    expect(regenerated).toMatchObject({ segments: 2, billable_seconds: 4, charged_now_seconds: 4 });
  }, 180_000);

  it('merging moves every line to the speaker kept; the merged one is gone', async () => {
    const merged = await call(tenant, 'POST', `/v1/dubbing/projects/${id}/speakers/${ben.id}/merge`, { into_speaker_id: ana.id });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({ id: ana.id, label: 'Ana', segments: 4 });
    expect((await segmentRows(id)).every((s) => s.speaker_id === ana.id)).toBe(true);
    expect((await speakerRows(id)).map((s) => s.label)).toEqual(['Ana']);
    expect((await call(tenant, 'PATCH', `/v1/dubbing/projects/${id}/speakers/${ben.id}`, { label: 'Ben' })).status).toBe(404);
  });

  it("unknown, malformed and other tenants' speakers are the same 404; bad input is refused naming the field and writes nothing", async () => {
    const stranger = await createTenant(suite.api.db, { credits: 0, creditsPerSecond: CPS });
    const before = { speakers: await speakerRows(id), voices: await voiceRows(id), segments: await segmentRows(id) };
    for (const [who, path] of [
      [tenant, `/v1/dubbing/projects/${id}/speakers/spk_doesnotexist0000`],
      [tenant, `/v1/dubbing/projects/${id}/speakers/not-an-id`],
      [stranger, `/v1/dubbing/projects/${id}/speakers/${ana.id}`],
    ] as const) {
      const res = await call(who, 'PATCH', path, { label: 'Zoe' });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found' });
    }
    expect((await call(stranger, 'GET', `/v1/dubbing/projects/${id}/speakers`)).status).toBe(404);
    const cases: [unknown, number, string, string][] = [
      [{}, 400, 'missing_parameter', 'label'],
      [{ voices: {} }, 400, 'missing_parameter', 'label'],
      [{ label: '' }, 400, 'invalid_parameter', 'label'],
      [{ label: 'x'.repeat(61) }, 400, 'invalid_parameter', 'label'],
      [{ voices: { es_es: 'espeak:does-not-exist' } }, 400, 'unsupported_voice', 'voices.es_es'],
      [{ voices: { fr_fr: 'espeak:fr' } }, 400, 'invalid_parameter', 'voices.fr_fr'],
      [{ label: 'Ana', colour: 'red' }, 400, 'unknown_parameter', 'colour'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await call(tenant, 'PATCH', `/v1/dubbing/projects/${id}/speakers/${ana.id}`, body);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
      if (param) expect(res.body.error.param).toBe(param);
    }
    const segment = (await segmentRows(id))[0]!;
    const wrongSpeaker = await call(tenant, 'PATCH', `/v1/dubbing/projects/${id}/transcript/segments/${segment.id}`, { speaker_id: 'spk_doesnotexist0000' });
    expect(wrongSpeaker.status).toBe(404);
    expect(wrongSpeaker.body.error.param).toBe('speaker_id');
    const self = await call(tenant, 'POST', `/v1/dubbing/projects/${id}/speakers/${ana.id}/merge`, { into_speaker_id: ana.id });
    expect(self.body.error).toMatchObject({ code: 'invalid_parameter', param: 'into_speaker_id' });
    expect({ speakers: await speakerRows(id), voices: await voiceRows(id), segments: await segmentRows(id) }).toEqual(before);
  });
});

describe('voices by speaker at create', () => {
  it("a per-speaker map gives each named speaker the customer's voice; a label the transcript does not name, or a voice not offered, is refused naming the field and writes nothing", async () => {
    const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
    const body = (voices: unknown) =>
      projectBody({ target_locales: ['es_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: suite.clip.length }, transcript: { format: 'vtt', content: SCRIPT }, voices });
    const before = await workspaceRowCounts(suite.api, tenant.workspace.id);
    for (const [voices, code, param] of [
      [{ es_es: { Zoe: 'espeak:es' } }, 'invalid_parameter', 'voices.es_es.Zoe'],
      [{ es_es: { Ana: 'espeak:nope' } }, 'unsupported_voice', 'voices.es_es.Ana'],
      [{ es_es: {} }, 'invalid_parameter', 'voices.es_es'],
    ] as const) {
      const res = await createProject(suite.api, tenant, body(voices));
      expect({ status: res.status, code: res.body.error?.code, param: res.body.error?.param }).toEqual({ status: 400, code, param });
    }
    const flat = await createProject(suite.api, tenant, projectBody({ target_locales: ['es_es'], voices: { es_es: { Ana: 'espeak:es' } } }));
    expect(flat.body.error).toMatchObject({ code: 'invalid_parameter', param: 'voices.es_es' });
    expect(await workspaceRowCounts(suite.api, tenant.workspace.id)).toEqual(before);

    const created = await createProject(suite.api, tenant, body({ es_es: { Ana: 'espeak:es', Ben: 'espeak:es+f3' } }));
    expect(created.status).toBe(201);
    const speakers = await speakersOf(tenant, created.body.data.id);
    expect(speakers.map((s) => [s.label, s.voices.es_es])).toEqual([
      ['Ana', { voice: 'espeak:es', chosen_by: 'customer', variant: false }],
      ['Ben', { voice: 'espeak:es+f3', chosen_by: 'customer', variant: false }],
    ]);
  });
});
