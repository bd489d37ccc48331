import { randomUUID } from 'node:crypto';
import { webhookDeliveryWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';
import { dedupeByDelivery, startWebhookReceiver, verifyDubbingSignature, type WebhookReceiver } from '../helpers/webhook-receiver';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// A worker process is SIGKILLed while it waits for the receiver's answer to a delivery. Another
// worker sends the same delivery again (at least once): the receiver sees the delivery id twice,
// keeps it once, and the delivery ends delivered with one attempt logged.

let api: TestApi;
let receiver: WebhookReceiver;
let doomed: WorkerProcess | undefined;
let survivor: TestWorker | undefined;

beforeAll(async () => {
  api = await startTestApi();
  receiver = await startWebhookReceiver();
}, 60_000);
afterAll(async () => {
  doomed?.process.kill('SIGKILL');
  await survivor?.stop();
  await receiver.close();
  await api.close();
});

it('delivers an event whose worker died mid-attempt, again under the same delivery id, and none is lost', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000 });
  const created = await request(api.baseUrl, 'POST', '/v1/webhooks', {
    headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
    body: { url: receiver.url('/killed'), enabled_events: ['project.failed'] },
  });
  expect(created.status).toBe(201);
  const { id: endpointId, secret } = created.body.data;

  const env = { TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, PUBLIC_BASE_URL: api.config.http.publicBaseUrl, WEBHOOK_ATTEMPT_TIMEOUT_MS: '60000' };
  doomed = startWorkerProcess(env);
  let doomedAlive = true;
  // The first worker's attempt is never answered: it is still waiting when the worker dies.
  receiver.answerWith('/killed', () => (doomedAlive ? 0 : 200));

  const bytes = Buffer.from('this is a text file pretending to be a video\n'.repeat(100));
  const project = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'notes.mp4', size_bytes: bytes.length } }));
  expect((await uploadAndComplete(api, tenant, project.body.data, bytes)).status).toBe(200);
  await waitFor('the first attempt at the receiver', async () => receiver.received.length >= 1, 120_000, 250);

  doomed.process.kill('SIGKILL');
  await new Promise((resolve) => (doomed!.process.exitCode !== null || doomed!.process.signalCode !== null ? resolve(undefined) : doomed!.process.once('exit', resolve)));
  doomedAlive = false;
  survivor = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: { PUBLIC_BASE_URL: api.config.http.publicBaseUrl } });

  await waitFor('the attempt sent again by the other worker', async () => receiver.received.length >= 2, 120_000, 250);
  const requests = receiver.received;
  expect(requests.map((r) => r.status)).toEqual([0, 200]);
  expect(new Set(requests.map((r) => r.headers['dubbing-delivery-id'])).size).toBe(1);
  expect(requests.map((r) => r.headers['dubbing-delivery-attempt'])).toEqual(['1', '1']);
  expect(requests[1]!.rawBody).toBe(requests[0]!.rawBody);
  for (const r of requests) expect(verifyDubbingSignature(r.rawBody, r.headers['dubbing-signature'] as string, secret)).toBe(true);
  const kept = dedupeByDelivery(requests);
  expect(kept.map((r) => r.body.type)).toEqual(['project.failed']);

  const deliveryId = kept[0]!.headers['dubbing-delivery-id'] as string;
  expect(await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(deliveryId)).result()).toEqual({ status: 'delivered', attempts: 1 });
  const delivery = await api.db.selectFrom('webhook_deliveries').select(['status', 'endpoint_id', 'event_id']).where('id', '=', deliveryId).executeTakeFirstOrThrow();
  expect(delivery).toEqual({ status: 'delivered', endpoint_id: endpointId, event_id: kept[0]!.body.id });
  expect(await api.db.selectFrom('webhook_delivery_attempts').select(['attempt', 'status_code']).where('delivery_id', '=', deliveryId).execute()).toEqual([{ attempt: 1, status_code: 200 }]);
  // The one event of the project, delivered once to the one endpoint.
  const events = await api.db.selectFrom('webhook_events').select(['id', 'type', 'sequence']).where('project_id', '=', project.body.data.id).execute();
  expect(events).toEqual([{ id: kept[0]!.body.id, type: 'project.failed', sequence: 1 }]);
}, 240_000);
