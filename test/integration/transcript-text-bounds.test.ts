import { randomUUID } from 'node:crypto';
import { newSegmentId, replaceSourceSegments, type Cue } from '../../src/db/source-segments';
import { formatTimestamp } from '../../src/shared/caption-timestamps';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Text is bounded by the time that carries it (docs/editing.md#how-much-text-a-cue-can-carry),
// wherever customer text with timing comes in, on the real app and PostgreSQL over HTTP: a
// transcript of 450 cues of 1 ms with 2,000 characters each (under the 1 MiB body limit) billed
// one second and had the engines translate and speak ~900,000 characters. It is refused at
// create (transcript and translations, as JSON, SubRip and WebVTT), by PUT …/transcript and by
// both segment PATCHes: 400 invalid_transcript naming the field and the cue, nothing written.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const DENSE: Cue[] = Array.from({ length: 450 }, (_, i) => ({ start_seconds: i * 0.002, end_seconds: i * 0.002 + 0.001, text: `${i} ${'x'.repeat(1990)}.`.slice(0, 2000) }));
const TOO_SHORT = 'cue 1 (00:00:00.000 → 00:00:00.001) lasts 0.001 s; a cue must last at least 0.2 s.';

const stamp = (seconds: number, comma: boolean) => formatTimestamp(seconds, comma ? ',' : '.');
const asFile = (format: 'json' | 'srt' | 'vtt', cues: readonly Cue[]) => {
  if (format === 'json') return { format, content: JSON.stringify(cues) };
  const blocks = cues.map((c, i) => `${format === 'srt' ? `${i + 1}\n` : ''}${stamp(c.start_seconds, format === 'srt')} --> ${stamp(c.end_seconds, format === 'srt')}\n${c.text}\n`);
  return { format, content: `${format === 'vtt' ? 'WEBVTT\n\n' : ''}${blocks.join('\n')}` };
};
/** One cue of 2,000 characters over 2.5 s: long enough, but 80 characters is what 2.5 s carries. */
const WORDY: Cue[] = [
  { start_seconds: 0.5, end_seconds: 3, text: 'Hello everyone and welcome.' },
  { start_seconds: 3.5, end_seconds: 6, text: 'y'.repeat(2000) },
];
const WORDY_MESSAGE = 'cue 2 (00:00:03.500 → 00:00:06.000) has 2000 characters in 2.500 s; at most 80 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).';
const SCRIPT: Cue[] = [
  { start_seconds: 0.5, end_seconds: 3, text: 'Hello everyone and welcome to the kitchen.' },
  { start_seconds: 3.5, end_seconds: 6, text: 'Today we cook rice.' },
];

const call = (tenant: TestTenant, method: string, path: string, body?: unknown) => request(api.baseUrl, method, path, { headers: bearer(tenant.key), ...(body === undefined ? {} : { body }) });
const transcriptPath = (id: string) => `/v1/dubbing/projects/${id}/transcript`;
const segmentPath = (id: string, segmentId: string) => `${transcriptPath(id)}/segments/${segmentId}`;
const linePath = (id: string, lineId: string) => `/v1/dubbing/projects/${id}/languages/es_es/segments/${lineId}`;
const sourceRows = (projectId: string) => api.db.selectFrom('source_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
const lineRows = (projectId: string) => api.db.selectFrom('language_segments').selectAll().where('project_id', '=', projectId).orderBy('position').execute();
const projectRow = (projectId: string) => api.db.selectFrom('projects').select(['transcript_source', 'supplied_translations']).where('id', '=', projectId).executeTakeFirstOrThrow();
const workspaceSegments = async (tenant: TestTenant) =>
  Number(
    (
      await api.db
        .selectFrom('source_segments')
        .innerJoin('projects', 'projects.id', 'source_segments.project_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('projects.workspace_id', '=', tenant.workspace.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

function expectRefused(res: { status: number; body: any }, param: string, message: string) {
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: expect.objectContaining({ type: 'invalid_request_error', code: 'invalid_transcript', param, message }) });
}

/** A completed, charged 12 s project with a machine transcript (one 0.11 s segment, as the recognizer makes) and a current Spanish line per segment. */
async function completedProject(tenant: TestTenant) {
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
      source_duration_seconds: 12,
      source_locale: 'en_us',
      target_locales: ['es_es'],
      status: 'completed',
      phase: 'completed',
      max_billable_seconds: 60,
      credits_per_second: 10,
      billable_seconds: 12,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  await api.db.insertInto('project_languages').values({ project_id: id, locale: 'es_es', status: 'completed', percent: 100 }).execute();
  const machine = [...SCRIPT, { start_seconds: 7.31, end_seconds: 7.42, text: 'Oh.' }];
  const segments = await api.db.transaction().execute((trx) => replaceSourceSegments(trx, id, machine, 'machine'));
  await api.db
    .insertInto('language_segments')
    .values(
      segments.map((s, i) => ({
        id: newSegmentId('lseg'),
        project_id: id,
        locale: 'es_es',
        source_segment_id: s.id,
        position: i,
        start_seconds: s.start_seconds,
        end_seconds: s.end_seconds,
        text: `línea ${i}`,
        status: 'current' as const,
        rendered_text: `línea ${i}`,
      })),
    )
    .execute();
  return { id, segments, lines: await lineRows(id) };
}

describe('at create', () => {
  it('450 cues of 1 ms with 2,000 characters each, as JSON, SubRip or WebVTT, in the transcript or a translation: 400, no project, hold, ledger entry, key or segment', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    for (const format of ['json', 'srt', 'vtt'] as const) {
      const file = asFile(format, DENSE);
      expect(Buffer.byteLength(JSON.stringify(file))).toBeLessThan(1024 * 1024);
      expectRefused(await createProject(api, tenant, projectBody({ transcript: file })), 'transcript.content', TOO_SHORT);
      expectRefused(await createProject(api, tenant, projectBody({ translations: { es_es: file } })), 'translations.es_es.content', TOO_SHORT);
    }
    // Long enough, but more words than the time carries.
    expectRefused(await createProject(api, tenant, projectBody({ transcript: asFile('srt', WORDY) })), 'transcript.content', WORDY_MESSAGE);
    expectRefused(await createProject(api, tenant, projectBody({ transcript: asFile('vtt', SCRIPT), translations: { es_es: asFile('json', WORDY) } })), 'translations.es_es.content', WORDY_MESSAGE);
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
    expect(await workspaceSegments(tenant)).toBe(0);

    // What a script's time carries is accepted.
    const created = await createProject(api, tenant, projectBody({ transcript: asFile('vtt', SCRIPT), translations: { es_es: asFile('srt', SCRIPT) } }));
    expect(created.status).toBe(201);
  });
});

describe('PUT …/transcript', () => {
  it('before the upload: the dense file is refused and the supplied transcript stays as it was', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const created = await createProject(api, tenant, projectBody({ transcript: asFile('vtt', SCRIPT) }));
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    const before = { segments: await sourceRows(id), counts: await workspaceRowCounts(api, tenant.workspace.id) };
    for (const format of ['json', 'srt', 'vtt'] as const) expectRefused(await call(tenant, 'PUT', transcriptPath(id), asFile(format, DENSE)), 'content', TOO_SHORT);
    expectRefused(await call(tenant, 'PUT', transcriptPath(id), asFile('json', WORDY)), 'content', WORDY_MESSAGE);
    expect(await sourceRows(id)).toEqual(before.segments);
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before.counts);
    expect((await projectRow(id)).transcript_source).toBe('supplied');
  });

  it("once completed: refused, no line goes stale; the transcript sent back as GET gave it, with the machine's 0.11 s segment, is accepted", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    expectRefused(await call(tenant, 'PUT', transcriptPath(id), asFile('json', DENSE)), 'content', TOO_SHORT);
    expect(await sourceRows(id)).toEqual(segments);
    expect(await lineRows(id)).toEqual(lines);
    expect((await projectRow(id)).transcript_source).toBe('machine');

    // A person's new words on the short segment are judged: a cue they send must last 0.2 s.
    const got = (await call(tenant, 'GET', transcriptPath(id))).body.data.segments.map(({ start_seconds, end_seconds, text }: Cue) => ({ start_seconds, end_seconds, text }));
    const reworded = got.map((s: Cue, i: number) => (i === 2 ? { ...s, text: 'Oh no.' } : s));
    expectRefused(await call(tenant, 'PUT', transcriptPath(id), asFile('vtt', reworded)), 'content', 'cue 3 (00:00:07.310 → 00:00:07.420) lasts 0.110 s; a cue must last at least 0.2 s.');
    expect(await sourceRows(id)).toEqual(segments);

    const back = await call(tenant, 'PUT', transcriptPath(id), asFile('vtt', got));
    expect(back.status).toBe(200);
    expect(back.body.data.segments.map((s: Cue) => s.text)).toEqual(['Hello everyone and welcome to the kitchen.', 'Today we cook rice.', 'Oh.']);
  });
});

describe('PATCH a segment', () => {
  it('source: 2,000 characters for 2.5 s, or timing cut to 1 ms, is refused naming the field; nothing is written and no line goes stale', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const second = segments[1]!;
    expectRefused(
      await call(tenant, 'PATCH', segmentPath(id, second.id), { text: 'z'.repeat(2000) }),
      'text',
      'The segment has 2000 characters in 2.500 s; at most 80 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    expectRefused(await call(tenant, 'PATCH', segmentPath(id, second.id), { end_seconds: 3.501 }), 'end_seconds', 'The segment lasts 0.001 s; a cue must last at least 0.2 s.');
    // Words and timing sent together: the words are what do not fit.
    expectRefused(
      await call(tenant, 'PATCH', segmentPath(id, second.id), { text: 'w'.repeat(60), end_seconds: 4 }),
      'text',
      'The segment has 60 characters in 0.500 s; at most 28 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    // Timing alone: the 42 characters the segment has do not fit the 0.5 s it would keep.
    expectRefused(
      await call(tenant, 'PATCH', segmentPath(id, segments[0]!.id), { end_seconds: 1 }),
      'end_seconds',
      'The segment has 42 characters in 0.500 s; at most 28 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    expect(await sourceRows(id)).toEqual(segments);
    expect(await lineRows(id)).toEqual(lines);
    expect((await projectRow(id)).transcript_source).toBe('machine');

    // Within the bound: accepted. The machine's 0.11 s segment takes new words its time carries.
    expect((await call(tenant, 'PATCH', segmentPath(id, second.id), { text: 'w'.repeat(80) })).status).toBe(200);
    expect((await call(tenant, 'PATCH', segmentPath(id, segments[2]!.id), { text: 'Oh, no.' })).status).toBe(200);
  });

  it('source timing: an edited line taking the new timing must fit it too', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, segments, lines } = await completedProject(tenant);
    const words = 'Hoy cocinamos arroz con verduras frescas, ya veréis.';
    expect((await call(tenant, 'PATCH', linePath(id, lines[1]!.id), { text: words })).status).toBe(200);
    const before = { segments: await sourceRows(id), lines: await lineRows(id) };
    expectRefused(
      await call(tenant, 'PATCH', segmentPath(id, segments[1]!.id), { end_seconds: 4.5 }),
      'end_seconds',
      'The es_es line of this segment, edited and taking its new timing, has 52 characters in 1.000 s; at most 41 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    expect({ segments: await sourceRows(id), lines: await lineRows(id) }).toEqual(before);

    expect((await call(tenant, 'PATCH', segmentPath(id, segments[1]!.id), { end_seconds: 5 })).status).toBe(200);
    expect((await lineRows(id))[1]).toMatchObject({ text: words, status: 'edited', start_seconds: 3.5, end_seconds: 5 });
  });

  it('language: 2,000 characters for a 2.5 s line is refused; the line stays as it was', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id, lines } = await completedProject(tenant);
    expectRefused(
      await call(tenant, 'PATCH', linePath(id, lines[1]!.id), { text: 'z'.repeat(2000) }),
      'text',
      'The line has 2000 characters in 2.500 s; at most 80 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    expectRefused(
      await call(tenant, 'PATCH', linePath(id, lines[2]!.id), { text: 'z'.repeat(21) }),
      'text',
      'The line has 21 characters in 0.110 s; at most 20 fit (26 characters a second, brisk speech at the 1.3× tempo cap, plus 15).',
    );
    expect(await lineRows(id)).toEqual(lines);
    const edited = await call(tenant, 'PATCH', linePath(id, lines[1]!.id), { text: 'z'.repeat(80) });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'edited', text: 'z'.repeat(80) });
  });
});
