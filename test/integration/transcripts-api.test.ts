import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { newSegmentId, replaceSourceSegments, type Cue } from '../../src/db/source-segments';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Reading and editing the words over HTTP (docs/editing.md#reading-and-editing): the source
// transcript (GET, PUT, PATCH a segment) and each language's lines (GET, PATCH a line), on the
// real app and PostgreSQL. Completed projects are written straight to the tables, as the
// workflows leave them; no workflow runs here.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const DURATION = 12;
const THREE: Cue[] = [
  { start_seconds: 0.5, end_seconds: 3, text: 'Hello everyone and welcome to the kitchen.' },
  { start_seconds: 3.5, end_seconds: 6, text: 'Today we cook rice.' },
  { start_seconds: 7, end_seconds: 9.5, text: 'With fresh vegetables.' },
];
const SPANISH = ['Hola a todos y bienvenidos a la cocina.', 'Hoy cocinamos arroz.', 'Con verduras frescas.'];

const call = (tenant: TestTenant | string, method: string, path: string, body?: unknown) =>
  request(api.baseUrl, method, path, { headers: bearer(typeof tenant === 'string' ? tenant : tenant.key), ...(body === undefined ? {} : { body }) });
const transcriptPath = (id: string) => `/v1/dubbing/projects/${id}/transcript`;
const segmentPath = (id: string, segmentId: string) => `/v1/dubbing/projects/${id}/transcript/segments/${segmentId}`;
const linesPath = (id: string, locale: string) => `/v1/dubbing/projects/${id}/languages/${locale}/segments`;
const linePath = (id: string, locale: string, lineId: string) => `${linesPath(id, locale)}/${lineId}`;

const sourceRows = (projectId: string) => api.db.selectFrom('source_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
const lineRows = (projectId: string, locale = 'es_es') =>
  api.db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).orderBy('position').execute();
const transcriptSource = async (projectId: string) => (await api.db.selectFrom('projects').select('transcript_source').where('id', '=', projectId).executeTakeFirstOrThrow()).transcript_source;

/** A new upload project, awaiting its upload, created through the API. */
async function newProject(tenant: TestTenant, overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await createProject(api, tenant, projectBody(overrides));
  expect(created.status).toBe(201);
  return created.body.data.id;
}

/**
 * A project as the workflows leave a completed one: charged, a machine transcript of three
 * segments, and for each locale one completed language (revision 1) with a `current` line per
 * segment.
 */
async function completedProject(tenant: TestTenant, options: { locales?: string[]; status?: 'completed' | 'processing'; languageStatus?: 'completed' | 'dubbing' } = {}) {
  const locales = options.locales ?? ['es_es'];
  const id = randomUUID();
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name: 'Cooking rice',
      source_type: 'upload',
      source_file_name: 'rice.mp4',
      source_size_bytes: 1_000_000,
      source_duration_seconds: DURATION,
      source_locale: 'en_us',
      target_locales: locales,
      status: options.status ?? 'completed',
      phase: options.status === 'processing' ? 'dubbing' : 'completed',
      max_billable_seconds: 60,
      credits_per_second: 10,
      billable_seconds: DURATION,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  await api.db
    .insertInto('project_languages')
    .values(locales.map((locale) => ({ project_id: id, locale, status: options.languageStatus ?? ('completed' as const), percent: 100 })))
    .execute();
  const segments = await api.db.transaction().execute((trx) => replaceSourceSegments(trx, id, THREE, 'machine'));
  for (const locale of locales) {
    await api.db
      .insertInto('language_segments')
      .values(
        segments.map((s, i) => ({
          id: newSegmentId('lseg'),
          project_id: id,
          locale,
          source_segment_id: s.id,
          position: i,
          start_seconds: s.start_seconds,
          end_seconds: s.end_seconds,
          text: `${SPANISH[i]} (${locale})`,
          status: 'current' as const,
          rendered_text: `${SPANISH[i]} (${locale})`,
        })),
      )
      .execute();
  }
  return { id, segments, lines: await lineRows(id, locales[0]) };
}

async function runningRegeneration(tenant: TestTenant, projectId: string, locale: string): Promise<void> {
  await api.db
    .insertInto('language_regenerations')
    .values({
      id: randomUUID(),
      project_id: projectId,
      workspace_id: tenant.workspace.id,
      locale,
      status: 'running',
      segments: 1,
      billable_seconds: 3,
      credits: 30,
      max_billable_seconds: 60,
      from_revision: 1,
      idempotency_key: randomUUID(),
    })
    .execute();
}

const SRT = ['1', '00:00:01,000 --> 00:00:02,000', 'One.', '', '2', '00:00:03,000 --> 00:00:04,000', 'Two.', '', '3', '00:00:05,000 --> 00:00:06,500', 'Three, <i>in</i> two', 'lines.', ''].join('\n');
const REVERSED_SRT = ['1', '00:00:01,000 --> 00:00:02,000', 'One.', '', '2', '00:00:03,000 --> 00:00:04,000', 'Two.', '', '3', '00:00:07,000 --> 00:00:06,500', 'Three.', ''].join('\n');

describe('the source transcript', () => {
  it('GET before there is one: no source, no segments', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const got = await call(tenant, 'GET', transcriptPath(id));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: { project_id: id, source: null, source_audio_url: null, segments: [] } });
    expect(await transcriptSource(id)).toBeNull();
  });

  it('PUT before the upload: the SubRip cues become the transcript (supplied), GET answers the same', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const put = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      project_id: id,
      source: 'supplied',
      segments: [
        { start_seconds: 1, end_seconds: 2, text: 'One.' },
        { start_seconds: 3, end_seconds: 4, text: 'Two.' },
        { start_seconds: 5, end_seconds: 6.5, text: 'Three, <i>in</i> two\nlines.' },
      ],
    });
    const rows = await sourceRows(id);
    expect(rows.map((r) => [r.id, r.position, r.start_seconds, r.end_seconds, r.text])).toEqual(put.body.data.segments.map((s: any, i: number) => [s.id, i, s.start_seconds, s.end_seconds, s.text]));
    expect(rows.every((r) => /^seg_[a-z0-9]{12,16}$/.test(r.id))).toBe(true);
    expect(await transcriptSource(id)).toBe('supplied');
    expect((await call(tenant, 'GET', transcriptPath(id))).body).toEqual(put.body);

    // A second PUT (JSON under `segments` this time) replaces it whole, with new ids.
    const again = await call(tenant, 'PUT', transcriptPath(id), { format: 'json', content: JSON.stringify({ segments: [{ start_seconds: 0, end_seconds: 1.25, text: ' Only one. ' }] }) });
    expect(again.status).toBe(200);
    expect(again.body.data.segments).toEqual([{ id: expect.stringMatching(/^seg_/), start_seconds: 0, end_seconds: 1.25, text: 'Only one.' }]);
    expect((await sourceRows(id)).map((r) => r.id)).toEqual([again.body.data.segments[0].id]);
  });

  it('a refused file names the cue and the field, and writes nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    const before = await sourceRows(id);

    const refusals: [unknown, string][] = [
      [{ format: 'srt', content: REVERSED_SRT }, 'cue 3 (00:00:07.000 → 00:00:06.500) ends before it starts.'],
      [
        { format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne.\n\n00:00:01.500 --> 00:00:03.000\nTwo.\n' },
        'cue 2 (00:00:01.500 → 00:00:03.000) starts before cue 1 ends (00:00:02.000); cues must be in order and must not overlap.',
      ],
      [{ format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n' }, 'cue 1 (00:00:01.000 → 00:00:02.000) has no text.'],
      [{ format: 'vtt', content: '1\n00:00:01,000 --> 00:00:02,000\nOne.\n' }, 'not a WebVTT file: caption block 0: missing WEBVTT signature.'],
      [{ format: 'json', content: '[{"start_seconds": 0, "end_seconds": "1", "text": "x"}]' }, 'cue 1: end_seconds must be a number of seconds.'],
    ];
    for (const [body, message] of refusals) {
      const refused = await call(tenant, 'PUT', transcriptPath(id), body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_transcript', param: 'content', message });
    }
    expect(await sourceRows(id)).toEqual(before);
    expect(await transcriptSource(id)).toBe('supplied');
  });

  it('PUT once completed: new segments, and every language line goes stale, edited ones included; cues must end within the source', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, lines } = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    await api.db.updateTable('language_segments').set({ status: 'edited', text: 'Mi línea.' }).where('id', '=', lines[1]!.id).execute();

    const beyond = await call(tenant, 'PUT', transcriptPath(id), { format: 'vtt', content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOne.\n\n00:00:11.000 --> 00:00:13.000\nTwo.\n' });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatchObject({ code: 'invalid_transcript', param: 'content', message: 'cue 2 (00:00:11.000 → 00:00:13.000) ends after the source, which lasts 00:00:12.000.' });
    expect((await lineRows(id)).map((l) => l.status)).toEqual(['current', 'edited', 'current']);
    expect(await transcriptSource(id)).toBe('machine');

    const put = await call(tenant, 'PUT', transcriptPath(id), {
      format: 'vtt',
      content: 'WEBVTT\n\n00:00:01.000 --> 00:00:05.000\nA whole new script.\n\n00:00:06.000 --> 00:00:11.900\nIn two cues.\n',
    });
    expect(put.status).toBe(200);
    expect(put.body.data.source).toBe('supplied');
    expect((await sourceRows(id)).map((r) => r.text)).toEqual(['A whole new script.', 'In two cues.']);
    for (const locale of ['es_es', 'ca_es']) {
      const after = await lineRows(id, locale);
      expect(after.map((l) => l.status)).toEqual(['stale', 'stale', 'stale']);
      // Their source segments are gone: the next regeneration builds one line per new segment.
      expect(after.map((l) => l.source_segment_id)).toEqual([null, null, null]);
    }
    expect((await lineRows(id))[1]!.text).toBe('Mi línea.');
  });
});

describe('editing a source segment', () => {
  it("changes its text: its lines go stale except edited ones, the other segments' lines stay current, the transcript is edited", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments } = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    const catalan = await lineRows(id, 'ca_es');
    await api.db.updateTable('language_segments').set({ status: 'edited', text: 'La meva línia.' }).where('id', '=', catalan[1]!.id).execute();

    const patched = await call(tenant, 'PATCH', segmentPath(id, segments[1]!.id), { text: ' Today we cook brown rice. ' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ data: { id: segments[1]!.id, start_seconds: 3.5, end_seconds: 6, text: 'Today we cook brown rice.' } });
    expect((await sourceRows(id)).map((r) => [r.id, r.text])).toEqual([
      [segments[0]!.id, THREE[0]!.text],
      [segments[1]!.id, 'Today we cook brown rice.'],
      [segments[2]!.id, THREE[2]!.text],
    ]);
    expect(await transcriptSource(id)).toBe('edited');
    expect((await lineRows(id, 'es_es')).map((l) => l.status)).toEqual(['current', 'stale', 'current']);
    const catalanAfter = await lineRows(id, 'ca_es');
    expect(catalanAfter.map((l) => l.status)).toEqual(['current', 'edited', 'current']);
    expect(catalanAfter[1]!.text).toBe('La meva línia.');
    expect((await call(tenant, 'GET', transcriptPath(id))).body.data).toMatchObject({ source: 'edited', segments: [{}, { text: 'Today we cook brown rice.' }, {}] });
  });

  it('changes its timing: every line of it takes the new timing, the edited one stays edited', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    await api.db.updateTable('language_segments').set({ status: 'edited' }).where('id', '=', lines[2]!.id).execute();

    const patched = await call(tenant, 'PATCH', segmentPath(id, segments[2]!.id), { start_seconds: 6.5, end_seconds: 11 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ id: segments[2]!.id, start_seconds: 6.5, end_seconds: 11, text: THREE[2]!.text });
    const after = await lineRows(id);
    expect(after.map((l) => [l.status, l.start_seconds, l.end_seconds])).toEqual([
      ['current', 0.5, 3],
      ['current', 3.5, 6],
      ['edited', 6.5, 11],
    ]);

    // The same edit again changes nothing: no line goes stale, nothing is written.
    await api.db.updateTable('projects').set({ transcript_source: 'machine' }).where('id', '=', id).execute();
    const repeated = await call(tenant, 'PATCH', segmentPath(id, segments[2]!.id), { start_seconds: 6.5, end_seconds: 11, text: THREE[2]!.text });
    expect(repeated.body).toEqual(patched.body);
    expect(await lineRows(id)).toEqual(after);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('refuses timing that breaks the order, leaves the source, or ends before it starts, and blank text: 400 naming the field, nothing written', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments } = await completedProject(tenant);
    const middle = segmentPath(id, segments[1]!.id);
    const last = segmentPath(id, segments[2]!.id);
    const cases: [string, unknown, string, string, string][] = [
      [
        middle,
        { start_seconds: 2.5 },
        'invalid_parameter',
        'start_seconds',
        'start_seconds (00:00:02.500) is before the previous segment ends (00:00:03.000); segments must be in order and must not overlap.',
      ],
      [
        middle,
        { end_seconds: 7.25 },
        'invalid_parameter',
        'end_seconds',
        'end_seconds (00:00:07.250) is after the next segment starts (00:00:07.000); segments must be in order and must not overlap.',
      ],
      [middle, { start_seconds: 6.5 }, 'invalid_parameter', 'start_seconds', 'The segment would end (00:00:06.000) before it starts (00:00:06.500).'],
      [last, { end_seconds: 12.5 }, 'invalid_parameter', 'end_seconds', 'end_seconds (00:00:12.500) is after the source ends (00:00:12.000).'],
      [middle, { text: '   ' }, 'invalid_parameter', 'text', 'text must not be blank: a segment says something.'],
      [middle, {}, 'missing_parameter', 'text', 'Send text, start_seconds or end_seconds: what the segment becomes.'],
      [middle, { start_seconds: -1 }, 'invalid_parameter', 'start_seconds', expect.any(String) as unknown as string],
      [middle, { words: 'x' }, 'unknown_parameter', 'words', expect.any(String) as unknown as string],
    ];
    const sourceBefore = await sourceRows(id);
    const linesBefore = await lineRows(id);
    for (const [path, body, code, param, message] of cases) {
      const refused = await call(tenant, 'PATCH', path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code, param, message });
    }
    expect(await sourceRows(id)).toEqual(sourceBefore);
    expect(await lineRows(id)).toEqual(linesBefore);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('works before the upload on a supplied transcript (no languages yet)', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const id = await newProject(tenant);
    const put = await call(tenant, 'PUT', transcriptPath(id), { format: 'srt', content: SRT });
    const first = put.body.data.segments[0];
    const patched = await call(tenant, 'PATCH', segmentPath(id, first.id), { text: 'Uno.', end_seconds: 2.75 });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ id: first.id, start_seconds: 1, end_seconds: 2.75, text: 'Uno.' });
    expect(await transcriptSource(id)).toBe('edited');
  });
});

describe('while the project is busy: 409 and nothing written', () => {
  it('a project being dubbed, a language still dubbing, or a regeneration running refuses transcript edits (project_busy)', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const processing = await completedProject(tenant, { status: 'processing', languageStatus: 'dubbing' });
    const dubbingLanguage = await completedProject(tenant, { languageStatus: 'dubbing' });
    const regenerating = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    await runningRegeneration(tenant, regenerating.id, 'ca_es');

    for (const [fixture, message] of [
      [processing, 'The project is being dubbed; its transcript can change once it has finished.'],
      [dubbingLanguage, 'es_es is being dubbed; the transcript can change once it has finished.'],
      [regenerating, 'ca_es is being regenerated; the transcript can change once that has finished.'],
    ] as const) {
      const before = { source: await sourceRows(fixture.id), lines: await lineRows(fixture.id) };
      const put = await call(tenant, 'PUT', transcriptPath(fixture.id), { format: 'srt', content: SRT });
      expect(put.status).toBe(409);
      expect(put.body.error).toEqual({ type: 'conflict_error', code: 'project_busy', message, request_id: expect.any(String) });
      const patch = await call(tenant, 'PATCH', segmentPath(fixture.id, fixture.segments[0]!.id), { text: 'Changed.' });
      expect(patch.status).toBe(409);
      expect(patch.body.error).toMatchObject({ code: 'project_busy', message });
      expect({ source: await sourceRows(fixture.id), lines: await lineRows(fixture.id) }).toEqual(before);
      expect(await transcriptSource(fixture.id)).toBe('machine');
      // Reading is never refused.
      expect((await call(tenant, 'GET', transcriptPath(fixture.id))).status).toBe(200);
    }

    // A project being validated has no transcript yet, and cannot take one.
    await api.db.updateTable('projects').set({ status: 'validating', phase: 'validating' }).where('id', '=', dubbingLanguage.id).execute();
    const validating = await call(tenant, 'PUT', transcriptPath(dubbingLanguage.id), { format: 'srt', content: SRT });
    expect(validating.body.error).toMatchObject({ code: 'project_busy', message: 'The project is being validated; its transcript can change once it has finished.' });
  });

  it('a language line cannot change while that language is dubbed or regenerated (language_busy); other languages can', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id } = await completedProject(tenant, { locales: ['es_es', 'ca_es', 'gl_es'] });
    await api.db.updateTable('project_languages').set({ status: 'dubbing' }).where('project_id', '=', id).where('locale', '=', 'ca_es').execute();
    await runningRegeneration(tenant, id, 'gl_es');
    const lineOf = async (locale: string) => (await lineRows(id, locale))[0]!;

    const dubbing = await call(tenant, 'PATCH', linePath(id, 'ca_es', (await lineOf('ca_es')).id), { text: 'Hola.' });
    expect(dubbing.status).toBe(409);
    expect(dubbing.body.error).toMatchObject({ code: 'language_busy', message: 'ca_es is being dubbed (dubbing); its lines can change once it has finished.' });
    const regenerating = await call(tenant, 'PATCH', linePath(id, 'gl_es', (await lineOf('gl_es')).id), { text: 'Ola.' });
    expect(regenerating.status).toBe(409);
    expect(regenerating.body.error).toMatchObject({ code: 'language_busy', message: 'gl_es is being regenerated; its lines can change once that has finished.' });
    expect((await lineOf('ca_es')).status).toBe('current');
    expect((await lineOf('gl_es')).status).toBe('current');

    const free = await call(tenant, 'PATCH', linePath(id, 'es_es', (await lineOf('es_es')).id), { text: 'Hola.' });
    expect(free.status).toBe(200);
  });
});

describe("a language's segments", () => {
  it('GET lists the lines with their status and the revision; a target not started yet has none; another locale is a 404', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    await api.db.updateTable('project_languages').set({ revision: 3 }).where('project_id', '=', id).execute();
    await api.db.updateTable('language_segments').set({ status: 'stale' }).where('id', '=', lines[0]!.id).execute();

    const got = await call(tenant, 'GET', linesPath(id, 'es_es'));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        locale: 'es_es',
        revision: 3,
        segments: lines.map((l, i) => ({
          id: l.id,
          source_segment_id: segments[i]!.id,
          start_seconds: THREE[i]!.start_seconds,
          end_seconds: THREE[i]!.end_seconds,
          text: `${SPANISH[i]} (es_es)`,
          status: i === 0 ? 'stale' : 'current',
          clip_url: null,
        })),
      },
    });

    const fresh = await newProject(tenant, { target_locales: ['es_es', 'ca_es'] });
    expect((await call(tenant, 'GET', linesPath(fresh, 'ca_es'))).body).toEqual({ data: { locale: 'ca_es', revision: null, segments: [] } });
    const other = await call(tenant, 'GET', linesPath(id, 'fr_fr'));
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: 'not_found', param: 'locale' });
  });

  it('PATCH makes a line edited with the given words; a later source edit leaves it edited', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const patched = await call(tenant, 'PATCH', linePath(id, 'es_es', lines[0]!.id), { text: '  Hola a todos, bienvenidos a mi cocina. ' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      data: { id: lines[0]!.id, source_segment_id: segments[0]!.id, start_seconds: 0.5, end_seconds: 3, text: 'Hola a todos, bienvenidos a mi cocina.', status: 'edited', clip_url: null },
    });
    const row = (await lineRows(id))[0]!;
    expect(row).toMatchObject({ status: 'edited', text: 'Hola a todos, bienvenidos a mi cocina.', rendered_text: `${SPANISH[0]} (es_es)` });

    const blank = await call(tenant, 'PATCH', linePath(id, 'es_es', lines[1]!.id), { text: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toMatchObject({ code: 'invalid_parameter', param: 'text' });
    expect((await lineRows(id))[1]!.status).toBe('current');

    const sourceEdit = await call(tenant, 'PATCH', segmentPath(id, segments[0]!.id), { text: 'Hello everyone, and welcome to my kitchen.' });
    expect(sourceEdit.status).toBe(200);
    expect((await lineRows(id)).map((l) => [l.status, l.text])).toEqual([
      ['edited', 'Hola a todos, bienvenidos a mi cocina.'],
      ['current', `${SPANISH[1]} (es_es)`],
      ['current', `${SPANISH[2]} (es_es)`],
    ]);
  });
});

describe('tenancy and permissions', () => {
  it("every route answers another workspace's project, segment or line with the same 404 as a missing one", async () => {
    const owner = await createTenant(api.db, { credits: 10_000 });
    const stranger = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(owner);
    const mine = await completedProject(stranger);
    const before = { source: await sourceRows(id), lines: await lineRows(id) };

    const routes: [string, (project: string, segment: string, line: string) => string, unknown?][] = [
      ['GET', (p) => transcriptPath(p)],
      ['PUT', (p) => transcriptPath(p), { format: 'srt', content: SRT }],
      ['PATCH', (p, s) => segmentPath(p, s), { text: 'Mine now.' }],
      ['GET', (p) => linesPath(p, 'es_es')],
      ['PATCH', (p, _s, l) => linePath(p, 'es_es', l), { text: 'Mío.' }],
    ];
    const errorOf = (res: { body: any }) => ({ ...res.body.error, request_id: undefined });
    for (const [method, path, body] of routes) {
      const foreign = await call(stranger, method, path(id, segments[0]!.id, lines[0]!.id), body);
      const missing = await call(stranger, method, path(randomUUID(), segments[0]!.id, lines[0]!.id), body);
      expect([method, foreign.status]).toEqual([method, 404]);
      expect(errorOf(foreign)).toEqual(errorOf(missing));
      expect(errorOf(foreign)).toEqual({ type: 'not_found_error', code: 'not_found', message: 'No such project.', param: 'project_id', request_id: undefined });
    }
    // The owner's segment and line ids, asked for under the stranger's own project: not found either.
    for (const [method, path, body] of [
      ['PATCH', segmentPath(mine.id, segments[0]!.id), { text: 'x' }],
      ['PATCH', linePath(mine.id, 'es_es', lines[0]!.id), { text: 'x' }],
    ] as const) {
      const res = await call(stranger, method, path, body);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', message: 'No such segment.', param: 'segment_id' });
    }
    expect({ source: await sourceRows(id), lines: await lineRows(id) }).toEqual(before);
    expect(await transcriptSource(id)).toBe('machine');
  });

  it('reading needs dubbing:read and changing needs dubbing:write', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const issue = async (permissions: ('dubbing:read' | 'dubbing:write')[]) =>
      (await issueApiKey(api.db, { workspaceId: tenant.workspace.id, kind: 'project', userId: null, name: 'scoped', permissions })).key;
    const reader = await issue(['dubbing:read']);
    const writer = await issue(['dubbing:write']);

    for (const [method, path, body] of [
      ['PUT', transcriptPath(id), { format: 'srt', content: SRT }],
      ['PATCH', segmentPath(id, segments[0]!.id), { text: 'x' }],
      ['PATCH', linePath(id, 'es_es', lines[0]!.id), { text: 'x' }],
    ] as const) {
      const res = await call(reader, method, path, body);
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'permission_denied']);
    }
    for (const path of [transcriptPath(id), linesPath(id, 'es_es')]) {
      expect((await call(writer, 'GET', path)).status).toBe(403);
      expect((await call(reader, 'GET', path)).status).toBe(200);
    }
    expect(await lineRows(id)).toEqual(lines);
  });
});
