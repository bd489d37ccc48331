import { randomUUID } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { listDeliveriesResponseSchema } from '../../src/api/webhooks/webhooks.schema';
import { createWebhookActivities } from '../../src/activities/webhook.activities';
import { webhookDeliveryWorkflowId } from '../../src/shared/workflow-ids';
import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, getProjectView, projectBody, uploadAndComplete } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';
import { dedupeByDelivery, startWebhookReceiver, verifyDubbingSignature, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver';

// Webhooks end to end: real projects on a real worker emit events, delivery workflows POST them
// to a receiver on 127.0.0.1 that checks every signature with the recipe of docs/webhooks.md.

let api: TestApi;
let worker: TestWorker;
let receiver: WebhookReceiver;
let dir: string;
let clip: Buffer;

// Retries a second apart, so a receiver answering 500 twice is retried within the test.
const startWorker = () =>
  startTestWorker(api.db, {
    taskQueue: api.config.temporal.taskQueue,
    env: { PUBLIC_BASE_URL: api.config.http.publicBaseUrl, WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2' },
  });

beforeAll(async () => {
  dir = makeTempDir('webhooks-');
  clip = await spokenClip(dir, 'This clip is five seconds long or a little more than that.', 5.5);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startWorker();
  receiver = await startWebhookReceiver();
  process.env.TEMPORAL_TASK_QUEUE = api.config.temporal.taskQueue; // what the console's config reads
}, 90_000);
afterAll(async () => {
  delete process.env.TEMPORAL_TASK_QUEUE;
  await worker.stop();
  await receiver.close();
  await api.close();
  removeTempDir(dir);
});

const registerEndpoint = async (tenant: TestTenant, url: string, enabledEvents?: string[]) => {
  const created = await request(api.baseUrl, 'POST', '/v1/webhooks', {
    headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
    body: { url, ...(enabledEvents ? { enabled_events: enabledEvents } : {}) },
  });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
};
const at = (path: string) => receiver.received.filter((r) => r.path === path);
const deliveryLog = async (tenant: TestTenant, endpointId: string) => (await request(api.baseUrl, 'GET', `/v1/webhooks/${endpointId}/deliveries`, { headers: bearer(tenant.key) })).body;
const expectSigned = (requests: ReceivedWebhook[], secret: string) => {
  for (const r of requests) {
    expect(verifyDubbingSignature(r.rawBody, r.headers['dubbing-signature'] as string, secret)).toBe(true);
    // The check can fail: another endpoint's secret, or a body changed on the way, does not verify.
    expect(verifyDubbingSignature(r.rawBody, r.headers['dubbing-signature'] as string, `${secret}x`)).toBe(false);
    expect(verifyDubbingSignature(r.rawBody.replace('"sequence"', '"sequence" '), r.headers['dubbing-signature'] as string, secret)).toBe(false);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toMatch(/^Dubbing-Webhooks\//);
    expect(r.headers['dubbing-event-id']).toBe(r.body.id);
  }
};

describe('a project that completes', () => {
  it('delivers project.validated, language.completed and project.completed in sequence order, signed, each once per delivery id across a worker restart', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const endpoint = await registerEndpoint(tenant, receiver.url('/complete'));
    // The worker is replaced the moment the first event arrives, while that delivery is in flight.
    let restart: Promise<void> | undefined;
    receiver.onRequest = (r) => {
      if (r.path !== '/complete' || restart) return;
      restart = (async () => {
        await worker.stop();
        worker = await startWorker();
      })();
    };
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
    expect(created.status).toBe(201);
    const projectId = created.body.data.id as string;
    expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);

    await waitFor('project.completed at the receiver', async () => at('/complete').some((r) => r.body?.type === 'project.completed'), 240_000, 500);
    await restart;
    receiver.onRequest = undefined;
    const requests = at('/complete');
    const deliveries = dedupeByDelivery(requests);
    expect(deliveries.map((r) => r.body.type)).toEqual(['project.validated', 'language.completed', 'project.completed']);
    expect(deliveries.map((r) => r.body.sequence)).toEqual([1, 2, 3]);
    expectSigned(requests, endpoint.secret);
    // A repeat (the same delivery id, sent again after the restart) is the same event, byte for byte.
    for (const r of requests) {
      const first = deliveries.find((d) => d.headers['dubbing-delivery-id'] === r.headers['dubbing-delivery-id'])!;
      expect(r.rawBody).toBe(first.rawBody);
    }

    const [validated, language, completed] = deliveries.map((r) => r.body);
    expect(validated).toMatchObject({ object: 'event', project_id: projectId, data: { object: { id: projectId, status: 'processing', usage: { state: 'charged' } } } });
    expect(language.locale).toBe('es_es');
    expect(validated.locale).toBeUndefined();
    expect(language.data.object.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed' });
    expect(language.data.object.languages[0].deliverables.length).toBeGreaterThan(0);
    // The payload is the project as GET returns it.
    expect(completed.data.object).toEqual(await getProjectView(api, tenant, projectId));
    expect(completed.data.object.status).toBe('completed');

    const events = await api.db.selectFrom('webhook_events').select(['id', 'type', 'sequence', 'workspace_id']).where('project_id', '=', projectId).orderBy('sequence').execute();
    expect(events).toEqual(deliveries.map((r) => ({ id: r.body.id, type: r.body.type, sequence: r.body.sequence, workspace_id: tenant.workspace.id })));
    const rows = await api.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'endpoint_id'])
      .where(
        'event_id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((d) => d.id))).toEqual(new Set(deliveries.map((r) => r.headers['dubbing-delivery-id'])));
    for (const delivery of rows) {
      expect(delivery).toMatchObject({ status: 'delivered', endpoint_id: endpoint.id });
      expect(await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(delivery.id)).result()).toMatchObject({ status: 'delivered' });
    }
    const log = await deliveryLog(tenant, endpoint.id);
    expect(log.data.length).toBeGreaterThanOrEqual(3);
    expect(log.data.every((a: any) => a.status_code === 200 && a.delivery_status === 'delivered')).toBe(true);
    expect(new Set(log.data.map((a: any) => a.event_type))).toEqual(new Set(['project.validated', 'language.completed', 'project.completed']));
  }, 300_000);
});

describe('ordering', () => {
  it("holds a project's later events while an earlier one is not delivered, then sends them in sequence", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const endpoint = await registerEndpoint(tenant, receiver.url('/ordered'));
    // project.validated is refused until the project has completed: by then language.completed
    // and project.completed exist and must wait for it.
    let projectId = '';
    let projectDone = false;
    receiver.answerWith('/ordered', (r) => ((r.body as any)?.type === 'project.validated' && !projectDone ? 500 : 200));
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
    projectId = created.body.data.id;
    expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
    await waitFor('the project completed', async () => (await getProjectView(api, tenant, projectId)).status === 'completed', 240_000, 500);
    await waitFor('three events recorded', async () => (await api.db.selectFrom('webhook_events').select('id').where('project_id', '=', projectId).execute()).length === 3, 30_000);
    // Nothing but project.validated has reached the receiver while it was refused.
    expect(new Set(at('/ordered').map((r) => r.body.type))).toEqual(new Set(['project.validated']));
    projectDone = true;

    await waitFor('project.completed at the receiver', async () => at('/ordered').some((r) => r.body?.type === 'project.completed'), 60_000, 250);
    const requests = at('/ordered');
    expectSigned(requests, endpoint.secret);
    const accepted = requests.filter((r) => r.status === 200);
    expect(accepted.map((r) => [r.body.type, r.body.sequence])).toEqual([
      ['project.validated', 1],
      ['language.completed', 2],
      ['project.completed', 3],
    ]);
    // Every refused attempt came before the first accepted one, and was the same delivery.
    const firstAccepted = requests.indexOf(accepted[0]!);
    expect(requests.slice(0, firstAccepted).every((r) => r.status === 500 && r.headers['dubbing-delivery-id'] === accepted[0]!.headers['dubbing-delivery-id'])).toBe(true);
    expect(firstAccepted).toBeGreaterThanOrEqual(1);
    // The waiting deliveries' workflows show it: they looked, waited, and were woken by the
    // earlier one's end (a signal), then looked again; no poll every few seconds.
    const later = await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(accepted[2]!.headers['dubbing-delivery-id'] as string)).fetchHistory();
    const checks = (later.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'webhookDeliveryBlocked');
    expect(checks.length).toBeGreaterThan(1);
    expect(checks.length).toBeLessThanOrEqual(3);
    expect((later.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'webhookQueueMoved').length).toBeGreaterThanOrEqual(1);
  }, 300_000);
});

describe('a receiver that answers 500', () => {
  let tenant: TestTenant;
  let endpoint: { id: string; secret: string };
  let eventId: string;
  let originalDeliveryId: string;

  it('gets the event again with the same delivery id until it answers 200, and the log shows every attempt', async () => {
    tenant = await createTenant(api.db, { credits: 10_000 });
    // Only project.failed: the cheapest real ending (a file that is not media).
    endpoint = await registerEndpoint(tenant, receiver.url('/flaky'), ['project.failed']);
    receiver.answer('/flaky', [500, 500]);
    const bytes = Buffer.from('this is a text file pretending to be a video\n'.repeat(100));
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'notes.mp4', size_bytes: bytes.length } }));
    const projectId = created.body.data.id as string;
    expect((await uploadAndComplete(api, tenant, created.body.data, bytes)).status).toBe(200);

    await waitFor('three attempts at the receiver', async () => at('/flaky').length >= 3, 120_000, 250);
    const requests = at('/flaky');
    expect(requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(requests.map((r) => r.headers['dubbing-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.headers['dubbing-delivery-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body.id)).size).toBe(1);
    expectSigned(requests, endpoint.secret);
    expect(requests[0]!.body).toMatchObject({ type: 'project.failed', sequence: 1, project_id: projectId, data: { object: { id: projectId, status: 'failed', failure: { code: 'invalid_media' } } } });
    eventId = requests[0]!.body.id;
    originalDeliveryId = requests[0]!.headers['dubbing-delivery-id'] as string;

    const result = await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(originalDeliveryId)).result();
    expect(result).toEqual({ status: 'delivered', attempts: 3 });
    // The workflow history shows the three attempts too.
    const history = await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(originalDeliveryId)).fetchHistory();
    const attempts = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'attemptWebhookDelivery');
    expect(attempts).toHaveLength(3);

    const log = await deliveryLog(tenant, endpoint.id);
    const validLog = addFormats(new Ajv({ strict: true })).compile(listDeliveriesResponseSchema);
    expect(validLog(log)).toBe(true);
    expect(log.data.map((a: any) => [a.attempt, a.status_code, a.delivery_id, a.event_id, a.delivery_status])).toEqual([
      [3, 200, originalDeliveryId, eventId, 'delivered'],
      [2, 500, originalDeliveryId, eventId, 'delivered'],
      [1, 500, originalDeliveryId, eventId, 'delivered'],
    ]);
    // Paged newest first like the endpoint list.
    const first = (await request(api.baseUrl, 'GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2`, { headers: bearer(tenant.key) })).body;
    expect(first.data.map((a: any) => a.attempt)).toEqual([3, 2]);
    expect(first.page.has_more).toBe(true);
    const rest = (await request(api.baseUrl, 'GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2&cursor=${encodeURIComponent(first.page.next_cursor)}`, { headers: bearer(tenant.key) })).body;
    expect(rest).toEqual({ data: [expect.objectContaining({ attempt: 1, status_code: 500 })], page: { has_more: false, next_cursor: null } });
    const rows = await api.db.selectFrom('webhook_delivery_attempts').select(['attempt', 'status_code']).where('delivery_id', '=', originalDeliveryId).orderBy('attempt').execute();
    expect(rows).toEqual([
      { attempt: 1, status_code: 500 },
      { attempt: 2, status_code: 500 },
      { attempt: 3, status_code: 200 },
    ]);
    // The endpoint asked for project.failed only: nothing else was recorded for it.
    expect(await api.db.selectFrom('webhook_deliveries').select('event_id').where('endpoint_id', '=', endpoint.id).execute()).toEqual([{ event_id: eventId }]);
  }, 180_000);

  it('gets it once more, as a new delivery, when an operator redelivers it from the console', async () => {
    const before = at('/flaky').length;
    const run = await consoleRun('webhooks:redeliver', eventId, '--endpoint', endpoint.id);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`redelivering event ${eventId}`);
    await waitFor('the redelivery', async () => at('/flaky').length > before, 60_000, 250);
    const redelivered = at('/flaky')[before]!;
    expect(redelivered.body.id).toBe(eventId);
    expect(redelivered.headers['dubbing-delivery-id']).not.toBe(originalDeliveryId);
    expectSigned([redelivered], endpoint.secret);
    const row = await api.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', redelivered.headers['dubbing-delivery-id'] as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event_id: eventId, endpoint_id: endpoint.id, redelivery_of: originalDeliveryId });
    await waitFor('the redelivery recorded', async () => (await api.db.selectFrom('webhook_deliveries').select('status').where('id', '=', row.id).executeTakeFirst())?.status === 'delivered', 30_000);

    const unknown = await consoleRun('webhooks:redeliver', randomUUID());
    expect(unknown.code).toBe(1);
    const malformed = await consoleRun('webhooks:redeliver', 'evt_123');
    expect(malformed.code).toBe(2);
  }, 90_000);

  it('is not reached on an internal address at delivery time when private targets are not allowed, and a deleted endpoint is given up', async () => {
    const activities = createWebhookActivities({
      db: api.db,
      temporal: api.temporal,
      taskQueue: api.config.temporal.taskQueue,
      webhooks: { publicBaseUrl: api.config.http.publicBaseUrl, allowPrivateTargets: false, secretKey: api.config.webhooks.secretKey, attemptTimeoutMs: 5000, retry: api.config.webhooks.retry },
    });
    // An endpoint written before the rule (or by a name that resolved elsewhere then).
    const endpointId = randomUUID();
    await api.db
      .insertInto('webhook_endpoints')
      .values({ id: endpointId, workspace_id: tenant.workspace.id, url: receiver.url('/internal'), secret: 'whsec_x', enabled_events: ['project.failed'], description: null, deleted_at: null })
      .execute();
    const deliveryId = randomUUID();
    await api.db.insertInto('webhook_deliveries').values({ id: deliveryId, endpoint_id: endpointId, event_id: eventId, redelivery_of: null, finished_at: null }).execute();

    const refused = await activities.attemptWebhookDelivery({ deliveryId, attempt: 1 });
    expect(refused).toMatchObject({ outcome: 'pending', statusCode: null });
    expect(refused.error).toContain('public addresses only');
    expect(at('/internal')).toEqual([]);
    await api.db.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).where('id', '=', endpointId).execute();
    expect(await activities.attemptWebhookDelivery({ deliveryId, attempt: 2 })).toMatchObject({ outcome: 'failed' });
    const attempts = await api.db.selectFrom('webhook_delivery_attempts').select(['attempt', 'status_code', 'error']).where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
    expect(attempts).toEqual([
      { attempt: 1, status_code: null, error: expect.stringContaining('public addresses only') },
      { attempt: 2, status_code: null, error: expect.stringContaining('deleted') },
    ]);
    expect((await api.db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveryId).executeTakeFirstOrThrow()).status).toBe('failed');
  });
});
