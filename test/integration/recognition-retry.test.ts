import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { sourceKeys } from '../../src/shared/source-keys';
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from '../fakes/openai-transcription-server';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// Issue 41, item 1: recognition that fails after the charge is the platform's failure, and the
// retry transcribes again (docs/recognition.md#when-recognition-fails). The recognizer is an
// OpenAI-compatible server (the double in test/fakes stands for that outside engine) that
// refuses one request with a 400; translation and speech are the bundled engines. Was: every
// language failed `source_failed` (retry charged), and the paid retry planned zero lines from no
// transcript and published silence as `completed`, keeping the new charge.

const CPS = 10;
const SECONDS = 9;
let api: TestApi;
let worker: TestWorker;
let asr: FakeTranscriptionServer;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = makeTempDir('recognition-retry-');
  asr = await startFakeTranscriptionServer();
  asr.script = ['The garden is green.', 'The sky is blue today.'];
  api = await startTestApi({}, [], 'none');
  worker = await startTestWorker(api.db, {
    taskQueue: api.config.temporal.taskQueue,
    env: { ASR_ENGINE_URL: asr.url, ASR_ENGINE_MODEL: 'Systran/faster-whisper-small', ASR_ENGINE_LOCALES: 'en_us' },
  });
  await api.capabilities.refresh();
  clip = await spokenClip(dir, 'The garden is green. The sky is blue today.', SECONDS);
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await asr?.close();
  if (dir) removeTempDir(dir);
});

const ledger = async (projectId: string) =>
  (await api.db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute()).map(
    (r) => `${r.kind}:${r.amount}:${r.reference.slice(projectId.length + 1)}`,
  );
const retry = (tenant: TestTenant, id: string, body: Record<string, unknown>, key?: string) =>
  request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages/es_es/retry`, { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });
const ended = (tenant: TestTenant, id: string, what: string) => waitForProjectView(api, tenant, id, what, (p) => ['completed', 'partially_completed', 'failed'].includes(p.status), 150_000);

it('a recognizer that refuses once: the language fails engine_failed (free), and the free retry transcribes again and dubs every sentence', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  asr.failNext('/audio/transcriptions', 1, { status: 400, body: { error: { message: 'Invalid file format.', type: 'invalid_request_error' } } });
  const asrBefore = asr.calls.length;
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es'], source: { type: 'upload', file_name: 'garden.mp4', size_bytes: clip.length } }));
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);

  // The engine's refusal is the platform's failure: refunded, and its retry is free.
  const failed = await ended(tenant, id, 'the project ended after recognition failed');
  expect(failed.status).toBe('failed');
  expect(failed.usage.billable_seconds).toBe(SECONDS);
  expect(failed.languages[0]).toMatchObject({ locale: 'es_es', status: 'failed', failure: { code: 'engine_failed', retry: 'free' }, usage: { charged_seconds: SECONDS, refunded_seconds: SECONDS } });
  expect(asr.calls.slice(asrBefore).map((c) => c.status)).toEqual([400]);
  const settled = [`hold:${60 * CPS}:hold`, `capture:${SECONDS * CPS}:capture`, `release:${(60 - SECONDS) * CPS}:release`, `refund:${SECONDS * CPS}:es_es:refund`];
  expect(await ledger(id)).toEqual(settled);
  expect(await api.db.selectFrom('source_segments').select('id').where('project_id', '=', id).execute()).toEqual([]);

  const quote = await retry(tenant, id, { max_billable_seconds: 60 });
  expect(quote.status).toBe(200);
  expect(quote.body.data.retry).toMatchObject({ price: 'free', failure_code: 'engine_failed', billable_seconds: 0, credits: 0, within_limit: true });
  const paid = await retry(tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(paid.status).toBe(200);
  expect(paid.body.data.retry).toMatchObject({ price: 'free', charged_now_seconds: 0, attempt: 2 });

  // The retry heard the source again, and dubbed what it heard.
  const done = await ended(tenant, id, 'the retry ended');
  expect(done.status).toBe('completed');
  expect(done.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', failure: null, usage: { charged_seconds: SECONDS, refunded_seconds: SECONDS, goodwill_seconds: 0 } });
  expect(asr.calls.slice(asrBefore).map((c) => c.status)).toEqual([400, 200]);
  const source = await api.db.selectFrom('source_segments').select('text').where('project_id', '=', id).orderBy('position').execute();
  expect(source.map((s) => s.text)).toEqual(asr.script);
  const lines = await api.db.selectFrom('language_segments').select(['text', 'clip_key']).where('project_id', '=', id).where('locale', '=', 'es_es').execute();
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line.clip_key).not.toBeNull();
  expect(await api.blobStore.stat(sourceKeys.speech(id))).not.toBeNull();
  const formats = done.languages[0].deliverables.map((d: any) => d.format).sort();
  expect(formats).toEqual(expect.arrayContaining(['mp3', 'mp4', 'srt', 'vtt', 'wav']));
  const vtt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
  expect(vtt.status).toBe(200);
  const cues = String(vtt.body)
    .split('\n')
    .filter((line) => line.includes(' --> '));
  expect(cues.length).toBeGreaterThan(0);

  // No money moved for the retry: the ledger is as the failure left it, and nothing is held or captured.
  expect(await ledger(id)).toEqual(settled);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
}, 300_000);
