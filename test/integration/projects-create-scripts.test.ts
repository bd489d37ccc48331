import { randomUUID } from 'node:crypto';
import { insertQueuedLanguages } from '../../src/db/status-writes';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Bring your own script at create (docs/editing.md#bring-your-own-script): `transcript` becomes
// the source segments in the create transaction, `translations` wait on the project until its
// languages are written at the charge, and a refused file writes nothing at all.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

// Voice spans and styling are markup, never words (docs/editing.md#markup-in-a-script).
const VTT = 'WEBVTT\n\nintro\n00:00.500 --> 00:03.000\n<v Ana>Hello everyone &amp; welcome.\n\nNOTE a note\n\n00:00:03.500 --> 00:00:06.000 align:start\n<v.loud Ben><i>Today</i> we cook rice.\n';
const SPANISH_SRT = '1\n00:00:00,500 --> 00:00:03,000\nHola a todos y bienvenidos.\n\n2\n00:00:03,500 --> 00:00:06,000\nHoy cocinamos arroz.\n';
const CATALAN_JSON = JSON.stringify([{ start_seconds: 0.5, end_seconds: 6, text: 'Hola a tothom; avui cuinem arròs.' }]);

const sourceRows = (projectId: string) =>
  api.db.selectFrom('source_segments').select(['id', 'position', 'start_seconds', 'end_seconds', 'text']).where('project_id', '=', projectId).orderBy('position').execute();
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

it('stores the transcript as supplied source segments and the translations on the project; a replay changes nothing', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000 });
  const key = randomUUID();
  const body = projectBody({
    target_locales: ['es_es', 'ca_es', 'pt_pt'],
    transcript: { format: 'vtt', content: VTT },
    translations: { es_es: { format: 'srt', content: SPANISH_SRT }, ca_es: { format: 'json', content: CATALAN_JSON } },
  });
  const created = await createProject(api, tenant, body, key);
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  expect(created.body.data).toMatchObject({ status: 'awaiting_upload', target_locales: ['es_es', 'ca_es', 'pt_pt'], languages: [] });

  const segments = await sourceRows(id);
  expect(segments.map(({ position, start_seconds, end_seconds, text }) => ({ position, start_seconds, end_seconds, text }))).toEqual([
    { position: 0, start_seconds: 0.5, end_seconds: 3, text: 'Hello everyone & welcome.' },
    { position: 1, start_seconds: 3.5, end_seconds: 6, text: 'Today we cook rice.' },
  ]);
  expect(await projectRow(id)).toEqual({
    transcript_source: 'supplied',
    supplied_translations: {
      es_es: [
        { start_seconds: 0.5, end_seconds: 3, text: 'Hola a todos y bienvenidos.' },
        { start_seconds: 3.5, end_seconds: 6, text: 'Hoy cocinamos arroz.' },
      ],
      ca_es: [{ start_seconds: 0.5, end_seconds: 6, text: 'Hola a tothom; avui cuinem arròs.' }],
    },
  });
  const transcript = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/transcript`, { headers: bearer(tenant.key) });
  expect(transcript.body.data).toEqual({
    project_id: id,
    source: 'supplied',
    source_audio_url: null,
    segments: segments.map(({ id: segmentId, start_seconds, end_seconds, text }) => ({ id: segmentId, start_seconds, end_seconds, text })),
  });

  // The same key and body: the stored answer, byte for byte, and nothing written twice.
  const counts = await workspaceRowCounts(api, tenant.workspace.id);
  const replay = await createProject(api, tenant, body, key);
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(created.body);
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(counts);
  expect(await sourceRows(id)).toEqual(segments);

  // When the project is charged, each language row takes its translation and the project lets go of them.
  await api.db.transaction().execute((trx) => insertQueuedLanguages(trx, { projectId: id, locales: ['es_es', 'ca_es', 'pt_pt'], chargedSeconds: 6 }));
  const languages = await api.db.selectFrom('project_languages').select(['locale', 'supplied_translation', 'charged_seconds']).where('project_id', '=', id).orderBy('locale').execute();
  expect(languages).toEqual([
    { locale: 'ca_es', supplied_translation: [{ start_seconds: 0.5, end_seconds: 6, text: 'Hola a tothom; avui cuinem arròs.' }], charged_seconds: 6 },
    {
      locale: 'es_es',
      supplied_translation: [
        { start_seconds: 0.5, end_seconds: 3, text: 'Hola a todos y bienvenidos.' },
        { start_seconds: 3.5, end_seconds: 6, text: 'Hoy cocinamos arroz.' },
      ],
      charged_seconds: 6,
    },
    { locale: 'pt_pt', supplied_translation: null, charged_seconds: 6 },
  ]);
  expect((await projectRow(id)).supplied_translations).toBeNull();
});

it('a refused transcript or translation names the field and the cue, and nothing is written: no project, hold, key or segment', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000 });
  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const reversed = '1\n00:00:01,000 --> 00:00:02,000\nOne.\n\n2\n00:00:03,000 --> 00:00:04,000\nTwo.\n\n3\n00:00:07,000 --> 00:00:06,500\nThree.\n';
  const cases: [Record<string, unknown>, string, string, string][] = [
    [{ transcript: { format: 'srt', content: reversed } }, 'invalid_transcript', 'transcript.content', 'cue 3 (00:00:07.000 → 00:00:06.500) ends before it starts.'],
    [{ transcript: { format: 'vtt', content: SPANISH_SRT } }, 'invalid_transcript', 'transcript.content', 'not a WebVTT file: caption block 0: missing WEBVTT signature.'],
    [{ translations: { es_es: { format: 'srt', content: reversed } } }, 'invalid_transcript', 'translations.es_es.content', 'cue 3 (00:00:07.000 → 00:00:06.500) ends before it starts.'],
    [{ translations: { es_es: { format: 'json', content: '[]' } } }, 'invalid_transcript', 'translations.es_es.content', 'the transcript has no cues.'],
    [{ translations: { fr_fr: { format: 'srt', content: SPANISH_SRT } } }, 'invalid_parameter', 'translations.fr_fr', 'translations.fr_fr: fr_fr is not one of target_locales (es_es).'],
    [{ transcript: { format: 'ass', content: 'x' } }, 'invalid_parameter', 'transcript.format', expect.any(String) as unknown as string],
    [
      { transcript: { format: 'vtt', content: 'WEBVTT\n\n00:00:00.500 --> 00:00:03.000\n<v Ana>Hi!</v> <v Ben>Hello!\n' } },
      'invalid_transcript',
      'transcript.content',
      'cue 1 (00:00:00.500 → 00:00:03.000) has two voices (Ana, Ben); give each voice its own cue.',
    ],
    [
      { transcript: { format: 'vtt', content: VTT, speaker_prefixes: true } },
      'invalid_parameter',
      'transcript.speaker_prefixes',
      'transcript.speaker_prefixes is for SubRip files only (format srt): a vtt file names its speakers itself.',
    ],
    [
      { translations: { es_es: { format: 'json', content: '[]', speaker_prefixes: true } } },
      'invalid_parameter',
      'translations.es_es.speaker_prefixes',
      'translations.es_es.speaker_prefixes is for SubRip files only (format srt): a json file names its speakers itself.',
    ],
  ];
  for (const [overrides, code, param, message] of cases) {
    const refused = await createProject(api, tenant, projectBody({ transcript: { format: 'vtt', content: VTT }, ...overrides }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code, param, message });
  }
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  expect(await workspaceSegments(tenant)).toBe(0);
});
