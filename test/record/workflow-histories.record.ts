import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLocalEngines, type Engines, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { claimReviewUpdate, submitTranscriptUpdate } from '../../src/shared/review-contracts';
import { languageWorkflowId, projectWorkflowId, regenerationWorkflowId, transcriptReviewWorkflowId, webhookDeliveryWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { heldSpeech } from '../helpers/gated-speech';
import { historyToJSON } from '../helpers/history-json';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { HISTORIES_DIR, historyFileName } from '../helpers/workflow-histories';

// `npm run record:histories`: runs the main workflows on the real stack (the Koa app over HTTP,
// PostgreSQL, the Temporal dev server, a real worker with the real engines, on a 3-second clip)
// and saves each finished workflow's history to test/unit/workflow-histories/<name>.<label>.json,
// which the unit tier replays against the current code (test/unit/workflow-replay.test.ts).
// The label is HISTORY_LABEL, or today's date. Not part of `make test` (jest matches *.test.ts).
// When and why to record: docs/design.md#changing-a-workflow.

const LABEL = process.env.HISTORY_LABEL ?? new Date().toISOString().slice(0, 10);
const CPS = 10;
const SECONDS = 3;
// Webhook retries a few seconds apart: a refused delivery retries within the run, in few attempts.
const WORKER_ENV = { WEBHOOK_RETRY_INITIAL_SECONDS: '2', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '8' };

let api: TestApi;
/** The same app with a 2-second review deadline, on the same task queue: a review that expires. */
let hastyApi: TestApi;
let worker: TestWorker | undefined;
let receiver: WebhookReceiver;
let dir: string;
let clip: Buffer;
let tenant: TestTenant;
/** The projects later steps build on. */
const projects = { completed: '', languageFailed: '', cancelled: '' };

beforeAll(async () => {
  mkdirSync(HISTORIES_DIR, { recursive: true });
  dir = makeTempDir('record-histories-');
  clip = await spokenClip(dir, 'Good morning. The weather is nice today.', SECONDS);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  hastyApi = await startTestApi({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, TRANSCRIPT_REVIEW_DEADLINE_SECONDS: '2' });
  receiver = await startWebhookReceiver();
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await hastyApi?.close();
  await api?.close();
  if (dir) removeTempDir(dir);
});

/** One real worker at a time on the API's task queue, with some engines replaced. */
async function useWorker(engines: Partial<Engines> = {}): Promise<void> {
  await worker?.stop();
  const env = { ...WORKER_ENV, PUBLIC_BASE_URL: api.config.http.publicBaseUrl };
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env, overrides: { engines: { ...createLocalEngines(), ...engines } } });
}

/** Waits for the workflow to close, then saves its history. */
async function saveHistory(workflowId: string, name: string): Promise<void> {
  const handle = api.temporal.workflow.getHandle(workflowId);
  await waitFor(`${workflowId} to close`, async () => (await handle.describe()).status.name !== 'RUNNING', 120_000, 250);
  const history = await handle.fetchHistory();
  writeFileSync(path.join(HISTORIES_DIR, historyFileName(name, LABEL)), `${historyToJSON(history)}\n`);
}

async function startDub(targets = ['es_es', 'ca_es']): Promise<string> {
  const created = await createProject(api, tenant, projectBody({ target_locales: targets, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  return created.body.data.id as string;
}

const waitForStatus = (id: string, status: string) => waitForProjectView(api, tenant, id, `project ${status}`, (p) => p.status === status, 240_000);
const language = (project: any, locale: string) => project.languages.find((l: any) => l.locale === locale);
const call = (method: string, projectId: string, route: string, body?: unknown) =>
  request(api.baseUrl, method, `/v1/dubbing/projects/${projectId}${route}`, { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body });

/** The real translator, except that Catalan goes to an apertium that is not installed (engine_failed). */
function brokenForCatalan(): Translator {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  return { translate: (texts, modes, opts) => (modes[modes.length - 1]!.split('-')[1]!.startsWith('cat') ? missing : real).translate(texts, modes, opts) };
}

it('a dub into two languages that completes, its webhooks refused a while then delivered', async () => {
  await useWorker();
  // project.validated is refused until both languages have ended: its delivery retries (a timer
  // between attempts) and the later events' deliveries wait in the queue for it (a signal).
  let release = false;
  receiver.answerWith('/hooks', (r) => (r.body?.type === 'project.validated' && !release ? 500 : 200));
  const endpoint = await request(api.baseUrl, 'POST', '/v1/webhooks', { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body: { url: receiver.url('/hooks') } });
  expect(endpoint.status).toBe(201);

  const id = (projects.completed = await startDub());
  await waitForStatus(id, 'completed');
  release = true;
  await saveHistory(projectWorkflowId(id), 'project-completed');
  await saveHistory(languageWorkflowId(id, 'es_es'), 'language-completed-es_es');
  await saveHistory(languageWorkflowId(id, 'ca_es'), 'language-completed-ca_es');

  const deliveries = () =>
    api.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select(['webhook_deliveries.id', 'webhook_deliveries.status', 'webhook_deliveries.attempts', 'webhook_events.sequence'])
      .where('webhook_deliveries.endpoint_id', '=', endpoint.body.data.id)
      .orderBy('webhook_events.sequence')
      .execute();
  const all = await waitFor(
    'every delivery ended',
    async () => {
      const rows = await deliveries();
      return rows.length >= 4 && rows.every((r) => r.status !== 'pending') ? rows : undefined;
    },
    120_000,
    500,
  );
  expect(all.every((r) => r.status === 'delivered')).toBe(true);
  expect(all[0]!.attempts).toBeGreaterThan(1);
  await saveHistory(webhookDeliveryWorkflowId(all[0]!.id), 'webhook-delivery-retried');
  await saveHistory(webhookDeliveryWorkflowId(all.at(-1)!.id), 'webhook-delivery-queued');
}, 400_000);

it('a dub whose Catalan engine fails: partially completed', async () => {
  await useWorker({ translator: brokenForCatalan() });
  const id = (projects.languageFailed = await startDub());
  const ended = await waitForStatus(id, 'partially_completed');
  expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'engine_failed' } });
  await saveHistory(projectWorkflowId(id), 'project-language-failed');
  await saveHistory(languageWorkflowId(id, 'ca_es'), 'language-failed');
}, 300_000);

it('a dub cancelled by the customer with one language completed and one mid-dub', async () => {
  const gate = heldSpeech('ca_es');
  await useWorker({ tts: gate.speech });
  const id = (projects.cancelled = await startDub());
  try {
    await gate.reached;
    await waitForProjectView(api, tenant, id, 'es_es completed', (p) => language(p, 'es_es')?.status === 'completed', 240_000);
    expect((await call('POST', id, '/cancel')).status).toBe(202);
    const ended = await waitForStatus(id, 'partially_completed');
    expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'cancelled' } });
  } finally {
    gate.open();
  }
  await saveHistory(projectWorkflowId(id), 'project-cancelled');
  await saveHistory(languageWorkflowId(id, 'ca_es'), 'language-cancelled');
}, 300_000);

it('a regeneration of an edited line', async () => {
  await useWorker();
  const id = projects.completed;
  const transcript = await call('GET', id, '/transcript');
  expect(transcript.status).toBe(200);
  const segment = transcript.body.data.segments[0];
  expect((await call('PATCH', id, `/transcript/segments/${segment.id}`, { text: 'The elephant is big.' })).status).toBe(200);
  const paid = await call('POST', id, '/languages/es_es/regenerate', { max_billable_seconds: 60, preview_only: false });
  expect(paid.status).toBe(200);
  expect(paid.body.data.regeneration).toMatchObject({ preview_only: false, segments: 1 });
  await waitForProjectView(api, tenant, id, 'es_es revision 2', (p) => language(p, 'es_es')?.revision === 2, 240_000);
  await saveHistory(regenerationWorkflowId(id, 'es_es', 1), 'regenerate-language');
}, 300_000);

it('a transcript review, claimed and verified; its completed language re-dubbed', async () => {
  const id = projects.languageFailed;
  const requested = await call('POST', id, '/transcript-review', { max_billable_seconds: 60, preview_only: false });
  expect(requested.status).toBe(200);
  const handle = api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id));
  expect(await handle.executeUpdate(claimReviewUpdate, { args: [{ reviewer: 'ada' }] })).toMatchObject({ status: 'in_review' });
  const cues = [
    { startSeconds: 0.2, endSeconds: 1.2, text: 'Good morning.' },
    { startSeconds: 1.3, endSeconds: 2.8, text: 'The elephant is big.' },
  ];
  expect(await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues }] })).toMatchObject({ status: 'verified' });
  expect(await handle.result()).toEqual({ status: 'verified', redubbed: ['es_es'], redubFailed: [] });
  await saveHistory(transcriptReviewWorkflowId(id), 'transcript-review-verified');
}, 300_000);

it('a transcript review nobody verifies by its deadline: refunded and expired', async () => {
  const id = projects.cancelled;
  const requested = await request(hastyApi.baseUrl, 'POST', `/v1/dubbing/projects/${id}/transcript-review`, {
    headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
    body: { max_billable_seconds: 60, preview_only: false },
  });
  expect(requested.status).toBe(200);
  expect(await api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id)).result()).toMatchObject({ status: 'expired' });
  await saveHistory(transcriptReviewWorkflowId(id), 'transcript-review-expired');
}, 120_000);
