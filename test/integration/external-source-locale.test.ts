import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libretranslate-server';
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from '../fakes/openai-transcription-server';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// A worker with an external recognizer serving de_de and an external translator translating
// German makes de_de a source (docs/engines.md): listed as one, accepted at create for the
// targets German is translated into, refused for the others, and dubbed end to end (spoken by
// the bundled espeak-ng, since this worker has no external synthesizer).

let api: TestApi;
let worker: TestWorker;
let tenant: TestTenant;
let dir: string;
let asr: FakeTranscriptionServer;
let mt: FakeLibreTranslate;

beforeAll(async () => {
  dir = makeTempDir('external-source-');
  [asr, mt] = await Promise.all([startFakeTranscriptionServer(), startFakeLibreTranslate({ de: ['es', 'en'], en: ['de'] })]);
  asr.script = ['Der Garten ist grün.', 'Der Himmel ist heute blau.'];
  api = await startTestApi({}, [], 'none');
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
  worker = await startTestWorker(api.db, {
    taskQueue: api.config.temporal.taskQueue,
    env: { ASR_ENGINE_URL: asr.url, ASR_ENGINE_LOCALES: 'de_de', MT_ENGINE_URL: mt.url },
  });
  await api.capabilities.refresh();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await Promise.all([asr?.close(), mt?.close()]);
  removeTempDir(dir);
});

it('lists de_de as a source beside the bundled locales, which keep their routes', async () => {
  const res = await request(api.baseUrl, 'GET', '/v1/dubbing/locales');
  expect(res.status).toBe(200);
  const byLocale = new Map((res.body.data as any[]).map((l) => [l.locale, l]));
  expect(byLocale.get('de_de')).toEqual({ locale: 'de_de', display_name: 'German (Germany)', usable_as_source: true, usable_as_target: true, translation_pivot: null });
  // English is still heard by pocketsphinx, and Catalan still reached through apertium.
  expect(byLocale.get('en_us')).toMatchObject({ usable_as_source: true });
  expect(byLocale.get('ca_es')).toMatchObject({ usable_as_target: true });
  // The translator asked the server what it translates, once, at start.
  expect(mt.calls.filter((c) => c.path === '/languages')).toHaveLength(1);
});

it('refuses a target German is not translated into, writing nothing', async () => {
  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const refused = await createProject(api, tenant, projectBody({ source_locale: 'de_de', target_locales: ['es_es', 'ca_es'] }));
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_locale', param: 'target_locales[1]' });
  expect(refused.body.error.message).toContain('"ca_es" cannot be translated from "de_de"');
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
});

it('dubs a German source into Spanish through the external recognizer and translator', async () => {
  const clip = await spokenClip(dir, 'The garden is green. The sky is blue today.', 4);
  const created = await createProject(api, tenant, projectBody({ source_locale: 'de_de', target_locales: ['es_es'], source: { type: 'upload', file_name: 'garten.mp4', size_bytes: clip.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  const view = await waitForProjectView(api, tenant, created.body.data.id, 'completed', (p) => ['completed', 'failed'].includes(p.status), 120_000);
  expect(view.status).toBe('completed');
  expect(view.languages[0].deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)

  expect(asr.calls).toHaveLength(1);
  expect(asr.calls[0]!.fields.language).toEqual(['de']);
  const translated = mt.calls.filter((c) => c.path === '/translate');
  expect(translated).toHaveLength(1);
  expect(translated[0]!.body).toMatchObject({ source: 'de', target: 'es', format: 'text' });
  // No key configured: none sent.
  expect(translated[0]!.body).not.toHaveProperty('api_key');
  const lines = await api.db.selectFrom('language_segments').select('text').where('project_id', '=', created.body.data.id).orderBy('position').execute();
  expect(lines.map((l) => l.text)).toEqual(['[es] Der Garten ist grün.', '[es] Der Himmel ist heute blau.']);
}, 180_000);
