import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { sql } from 'kysely';
import { freePort } from '../../scripts/lib/free-port';
import { resolveTemporalCli, startTemporalDevServer, type DevServer } from '../../scripts/lib/temporal-dev-server';
import { createReconcilerActivities } from '../../src/activities/reconciler.activities';
import { createWebhookActivities } from '../../src/activities/webhook.activities';
import type { WebhookDeliveryResult, WebhookRetrySchedule } from '../../src/shared/webhook-contracts';
import type { TranscriptReviewResult } from '../../src/shared/review-contracts';
import { transcriptReviewWorkflowId, webhookDeliveryWorkflowId } from '../../src/shared/workflow-ids';
import { startReviewWorkflow } from '../../src/temporal/start-review-workflow';
import { startWebhookDelivery } from '../../src/temporal/start-webhook-delivery';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { failLanguage } from '../../src/lifecycle/language-lifecycle';
import { appendProjectEvents, projectEvent } from '../../src/lifecycle/project-events';

// Long waits without long histories. This file runs its own Temporal dev server whose history
// limit is lowered from 51,200 events to HISTORY_LIMIT, so a workflow that polls while it waits
// is terminated by the server within a minute here, as it would be after about 19 hours (a
// delivery's 15 s re-check) or three days (the review's one-minute re-check) in production.
// A workflow that waits on a signal stays far below it. (@temporalio/testing's time-skipping
// server is downloaded on first use; this machine may be offline, the dev server is at hand.)

const HISTORY_LIMIT = 80;

let temporal: DevServer;
let api: TestApi;
let worker: TestWorker;
let receiver: WebhookReceiver;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('webhooks-queue-');
  temporal = await startTemporalDevServer({
    cli: resolveTemporalCli(),
    port: await freePort(),
    uiPort: null,
    dbFile: null,
    logFile: path.join(dir, 'temporal.log'),
    dynamicConfig: { 'limit.historyCount.error': HISTORY_LIMIT, 'limit.historyCount.warn': HISTORY_LIMIT / 2 },
  });
  api = await startTestApi({ TEMPORAL_ADDRESS: temporal.address });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: { TEMPORAL_ADDRESS: temporal.address, PUBLIC_BASE_URL: api.config.http.publicBaseUrl } });
  receiver = await startWebhookReceiver();
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await api?.close();
  await temporal?.stop();
  if (dir) removeTempDir(dir);
});

/** A project that has ended (failed): the emitter owes it one event, `project.failed`. */
async function failedProject(tenant: TestTenant, extra: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name: 'queued events',
      source_type: 'upload',
      source_file_name: 'clip.mp4',
      source_size_bytes: 1_000_000,
      source_locale: 'en_us',
      target_locales: ['es_es'],
      source_duration_seconds: 30,
      status: 'failed',
      phase: 'completed',
      max_billable_seconds: 600,
      credits_per_second: 10,
      billable_seconds: 30,
      usage_state: 'limit_exceeded',
      hold_reference: `${id}:hold`,
      ...extra,
    } as never)
    .execute();
  return id;
}

async function endpoint(tenant: TestTenant, url: string): Promise<string> {
  const id = randomUUID();
  await api.db
    .insertInto('webhook_endpoints')
    .values({ id, workspace_id: tenant.workspace.id, url, secret: `whsec_${randomUUID()}`, enabled_events: ['language.completed', 'project.failed'], description: null, deleted_at: null })
    .execute();
  return id;
}

/** `count` events of the project (sequence 1, 2 …), relayed, each with a pending delivery to every endpoint; delivery ids by sequence. */
async function pendingEvents(tenant: TestTenant, projectId: string, endpointIds: string[], count: number): Promise<string[][]> {
  const bySequence: string[][] = [];
  for (let sequence = 1; sequence <= count; sequence++) {
    const eventId = randomUUID();
    await api.db
      .insertInto('webhook_events')
      .values({
        id: eventId,
        workspace_id: tenant.workspace.id,
        project_id: projectId,
        sequence,
        type: 'language.completed',
        discriminator: `es_es:${sequence}:1`,
        payload: JSON.stringify({ id: projectId }),
        relayed_at: new Date(),
      })
      .execute();
    const ids = endpointIds.map(() => randomUUID());
    await api.db
      .insertInto('webhook_deliveries')
      .values(ids.map((id, i) => ({ id, endpoint_id: endpointIds[i]!, event_id: eventId, redelivery_of: null, finished_at: null })))
      .execute();
    bySequence.push(ids);
  }
  return bySequence;
}

const start = (tenant: TestTenant, projectId: string, deliveryId: string, retry: WebhookRetrySchedule) =>
  startWebhookDelivery(api.temporal, { taskQueue: api.config.temporal.taskQueue, timeoutMs: 10_000, retry }, { id: deliveryId, projectId, workspaceId: tenant.workspace.id, createdAt: new Date() });
const deliveryRow = (id: string) => api.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
const historyLength = async (workflowId: string) => ((await api.temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? []).length;
const activityCount = async (workflowId: string, name: string) =>
  ((await api.temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).length;
const hasWorkflow = async (workflowId: string) => {
  try {
    await api.temporal.workflow.getHandle(workflowId).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
};
const deliveryIdsAt = (urlPath: string) => receiver.received.filter((r) => r.path === urlPath).map((r) => ({ id: r.headers['dubbing-delivery-id'] as string, status: r.status, at: Date.now() }));

describe('a delivery queued behind one that retries for a long time', () => {
  it("issue 26 item 1: waits on its predecessor's signal with a short history, is delivered in order right after it; one whose lifetime ends while queued is given up unsent", async () => {
    const tenant = await createTenant(api.db);
    const projectId = await failedProject(tenant);
    const urlPath = `/queue/${randomUUID()}`;
    const endpointId = await endpoint(tenant, receiver.url(urlPath));
    const [[first], [shortLived], [third]] = (await pendingEvents(tenant, projectId, [endpointId], 3)) as [[string], [string], [string]];
    // The receiver is down for the first delivery until told otherwise; it would take the others.
    let receiverUp = false;
    const acceptedAt = new Map<string, number>();
    receiver.answerWith(urlPath, (r) => {
      const ok = receiverUp || r.headers['dubbing-delivery-id'] !== first;
      if (ok) acceptedAt.set(r.headers['dubbing-delivery-id'] as string, Date.now());
      return ok ? 200 : 500;
    });
    // Retries 10, 20, 30, 30 s apart: the first delivery retries for about 90 s, a long time for
    // a server that terminates histories over 80 events (a polling waiter would pass it in 30 s).
    const retry: WebhookRetrySchedule = { initialIntervalSeconds: 10, maximumIntervalSeconds: 30, windowSeconds: 3600, lifetimeSeconds: 3600 };
    await start(tenant, projectId, first, retry);
    // The second's lifetime ends after 8 s, while it is still queued.
    await start(tenant, projectId, shortLived, { ...retry, lifetimeSeconds: 8 });
    await start(tenant, projectId, third, retry);

    await waitFor('four refused attempts of the first delivery (about 60 s)', async () => deliveryIdsAt(urlPath).filter((r) => r.id === first).length >= 4, 120_000, 500);
    // The third has waited all along without growing: one look, one long wait (no poll every few
    // seconds, which this server would have terminated by now).
    const thirdId = webhookDeliveryWorkflowId(third);
    expect((await api.temporal.workflow.getHandle(thirdId).describe()).status.name).toBe('RUNNING');
    expect(await historyLength(thirdId)).toBeLessThan(30);
    expect(await activityCount(thirdId, 'webhookDeliveryBlocked')).toBeLessThanOrEqual(2);
    expect(await deliveryRow(third)).toEqual({ status: 'pending', attempts: 0 });
    // The second's lifetime ended while it was queued: given up, never sent.
    expect(await deliveryRow(shortLived)).toEqual({ status: 'failed', attempts: 0 });
    expect(await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(shortLived)).result()).toEqual({ status: 'failed', attempts: 0 } satisfies WebhookDeliveryResult);
    receiverUp = true;

    await waitFor('the third delivery delivered', async () => (await deliveryRow(third)).status === 'delivered', 60_000, 250);
    expect(await api.temporal.workflow.getHandle(thirdId).result()).toEqual({ status: 'delivered', attempts: 1 });
    expect(await deliveryRow(first)).toMatchObject({ status: 'delivered', attempts: 5 });
    // In order: every attempt of the first came before the third's only one; the second never came.
    const sent = deliveryIdsAt(urlPath).map((r) => [r.id === first ? 'first' : r.id === third ? 'third' : 'other', r.status]);
    expect(sent).toEqual([
      ['first', 500],
      ['first', 500],
      ['first', 500],
      ['first', 500],
      ['first', 200],
      ['third', 200],
    ]);
    // Woken by the first's end, not by its own re-check (10 minutes away).
    expect(acceptedAt.get(third)! - acceptedAt.get(first)!).toBeLessThan(10_000);
    expect(await historyLength(thirdId)).toBeLessThan(40);
  }, 240_000);
});

describe('the reconciler', () => {
  it('issue 26 item 1: starts a pending delivery whose workflow died again once, then gives it up and wakes the next one', async () => {
    const tenant = await createTenant(api.db);
    const projectId = await failedProject(tenant);
    const urlPath = `/dead/${randomUUID()}`;
    const endpointId = await endpoint(tenant, receiver.url(urlPath));
    const [[head], [next]] = (await pendingEvents(tenant, projectId, [endpointId], 2)) as [[string], [string]];
    receiver.answerWith(urlPath, (r) => (r.headers['dubbing-delivery-id'] === head ? 500 : 200));
    const retry: WebhookRetrySchedule = { initialIntervalSeconds: 30, maximumIntervalSeconds: 30, windowSeconds: 3600, lifetimeSeconds: 3600 };
    await start(tenant, projectId, head, retry);
    await start(tenant, projectId, next, retry);
    await waitFor('the first attempt', async () => deliveryIdsAt(urlPath).length >= 1, 30_000);
    // Its run is terminated (an operator, a history limit): nothing would ever send it or the next.
    await api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(head)).terminate('lost');

    const reconciler = createReconcilerActivities({
      db: api.db,
      temporal: api.temporal,
      taskQueue: api.config.temporal.taskQueue,
      reconcileGraceSeconds: 0,
      webhooks: { retry, publicBaseUrl: api.config.http.publicBaseUrl },
    });
    const subject = webhookDeliveryWorkflowId(head);
    expect(await reconciler.reconcile({ workspaceId: tenant.workspace.id, graceSeconds: 0 })).toEqual({
      repairs: [{ subject, kind: 'restart_webhook_delivery', detail: 'pending with no running workflow; started it again' }],
      failed: [],
    });
    await waitFor('an attempt of the restarted run', async () => deliveryIdsAt(urlPath).filter((r) => r.id === head).length >= 2, 30_000);
    expect((await api.temporal.workflow.getHandle(subject).describe()).status.name).toBe('RUNNING');
    // It numbers on from the dead run's attempt, so the delivery log keeps both.
    expect(receiver.received.filter((r) => r.path === urlPath).map((r) => r.headers['dubbing-delivery-attempt'])).toEqual(['1', '2']);
    await waitFor('the second attempt recorded', async () => (await deliveryRow(head)).attempts === 2, 10_000);
    expect(await api.db.selectFrom('webhook_delivery_attempts').select(['attempt', 'status_code']).where('delivery_id', '=', head).orderBy('attempt').execute()).toEqual([
      { attempt: 1, status_code: 500 },
      { attempt: 2, status_code: 500 },
    ]);
    // The next one waits behind it, untouched.
    expect(await reconciler.reconcile({ workspaceId: tenant.workspace.id, graceSeconds: 0 })).toEqual({ repairs: [], failed: [] });

    // Dead again: given up this time, and the next delivery goes at once.
    await api.temporal.workflow.getHandle(subject).terminate('lost again');
    expect(await reconciler.reconcile({ workspaceId: tenant.workspace.id, graceSeconds: 0 })).toEqual({
      repairs: [{ subject, kind: 'give_up_webhook_delivery', detail: 'pending with no running workflow again after a restart; gave it up and woke the next delivery' }],
      failed: [],
    });
    expect(await deliveryRow(head)).toMatchObject({ status: 'failed' });
    await waitFor('the next delivery delivered', async () => (await deliveryRow(next)).status === 'delivered', 20_000, 250);
    expect(deliveryIdsAt(urlPath).map((r) => [r.id === head ? 'head' : 'next', r.status])).toEqual([
      ['head', 500],
      ['head', 500],
      ['next', 200],
    ]);
    const repairs = await api.db.selectFrom('reconciler_repairs').select('kind').where('subject', '=', subject).orderBy('id').execute();
    expect(repairs.map((r) => r.kind)).toEqual(['restart_webhook_delivery', 'give_up_webhook_delivery']);
  }, 120_000);
});

describe('an emit while many older deliveries are pending', () => {
  it("issue 26 item 6: starts only the deliveries it created, not the older pending ones (the reconciler's part)", async () => {
    const tenant = await createTenant(api.db);
    const projectId = await failedProject(tenant);
    const endpointIds: string[] = [];
    for (let i = 0; i < 5; i++) endpointIds.push(await endpoint(tenant, receiver.url(`/fanout/${i}`)));
    // 40 earlier events, each still pending to each of the 5 endpoints (a receiver down for long).
    const older = (await pendingEvents(tenant, projectId, endpointIds, 40)).flat();
    expect(older).toHaveLength(200);
    const activities = createWebhookActivities({
      db: api.db,
      temporal: api.temporal,
      taskQueue: api.config.temporal.taskQueue,
      webhooks: { publicBaseUrl: api.config.http.publicBaseUrl, allowPrivateTargets: true, secretKey: api.config.webhooks.secretKey, attemptTimeoutMs: 5000, retry: api.config.webhooks.retry },
    });

    // The step: the project fails, its transition appending project.failed; then its workflow relays.
    await api.db.transaction().execute((trx) => appendProjectEvents(trx, projectId, [projectEvent.ended('failed', new Date())], { publicBaseUrl: api.config.http.publicBaseUrl }));
    const began = Date.now();
    expect(await activities.emitProjectEvents(projectId)).toMatchObject({ emitted: 1 });
    const elapsed = Date.now() - began;

    const created = await api.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['d.id', 'd.endpoint_id', 'd.status', 'e.type', 'e.sequence'])
      .where('e.project_id', '=', projectId)
      .where('e.sequence', '=', 41)
      .execute();
    expect(created).toHaveLength(5);
    expect(created.every((d) => d.type === 'project.failed' && d.status === 'pending')).toBe(true);
    expect(new Set(created.map((d) => d.endpoint_id))).toEqual(new Set(endpointIds));
    for (const d of created) expect(await hasWorkflow(webhookDeliveryWorkflowId(d.id))).toBe(true);
    // None of the 200 older ones was started.
    const startedOlder: string[] = [];
    for (const id of older) if (await hasWorkflow(webhookDeliveryWorkflowId(id))) startedOlder.push(id);
    expect(startedOlder).toEqual([]);
    expect(elapsed).toBeLessThan(10_000);
    // A second emit has nothing new: it starts nothing and writes nothing.
    expect(await activities.emitProjectEvents(projectId)).toMatchObject({ emitted: 0 });
    expect(
      await api.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('e.project_id', '=', projectId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: 205 });
  }, 120_000);
});

describe('a verified review waiting for a language still running', () => {
  it('issue 26 item 1: re-plans when the language ends (the emitter signals it), not on a one-minute poll', async () => {
    const tenant = await createTenant(api.db);
    const projectId = await failedProject(tenant, { status: 'processing', phase: 'dubbing', usage_state: 'charged', transcript_review_status: 'verified' });
    await api.db
      .insertInto('project_languages')
      .values({
        project_id: projectId,
        locale: 'es_es',
        status: 'dubbing',
        phase_message: null,
        failure_code: null,
        failure_message: null,
        title: null,
        description: null,
        drift_seconds: null,
        completed_at: null,
        percent: 40,
      } as never)
      .execute();
    await api.db
      .insertInto('transcript_reviews')
      .values({
        project_id: projectId,
        workspace_id: tenant.workspace.id,
        status: 'verified',
        billable_seconds: 60,
        credits: 600,
        deadline_at: new Date(Date.now() + 3_600_000),
        reviewer: 'ada',
        verified_at: new Date(),
      } as never)
      .execute();
    const settings = { publicBaseUrl: api.config.http.publicBaseUrl };
    const activities = createWebhookActivities({
      db: api.db,
      temporal: api.temporal,
      taskQueue: api.config.temporal.taskQueue,
      webhooks: { ...settings, allowPrivateTargets: true, secretKey: api.config.webhooks.secretKey, attemptTimeoutMs: 5000, retry: api.config.webhooks.retry },
    });
    // The verification's transition appended its event, and the review workflow relayed it.
    await api.db.transaction().execute((trx) => appendProjectEvents(trx, projectId, [projectEvent.reviewVerified()], settings));
    expect(await activities.emitProjectEvents(projectId)).toMatchObject({ emitted: 1 });
    await startReviewWorkflow(api.temporal, { taskQueue: api.config.temporal.taskQueue, timeoutMs: 10_000 }, { id: projectId, workspace_id: tenant.workspace.id });
    const workflowId = transcriptReviewWorkflowId(projectId);
    await waitFor('the review waiting for es_es', async () => (await activityCount(workflowId, 'planRedubs')) === 1, 20_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await activityCount(workflowId, 'planRedubs')).toBe(1);

    // The language ends (failed, so there is nothing to re-dub) and its workflow emits, as it does.
    await api.db.transaction().execute((trx) => failLanguage(trx, { projectId, locale: 'es_es', attempt: 'current', code: 'engine_failed', detail: 'test' }, settings));
    const ended = Date.now();
    expect(await activities.emitProjectEvents(projectId)).toMatchObject({ emitted: 1 });
    const result = await Promise.race([
      api.temporal.workflow.getHandle(workflowId).result() as Promise<TranscriptReviewResult>,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the review did not end within 20 s of the language')), 20_000)),
    ]);
    expect(result).toEqual({ status: 'verified', redubbed: [], redubFailed: [] });
    expect(Date.now() - ended).toBeLessThan(20_000);
    expect(await activityCount(workflowId, 'planRedubs')).toBe(2);
    const events = await api.db.selectFrom('webhook_events').select('type').where('project_id', '=', projectId).orderBy('sequence').execute();
    expect(events.map((e) => e.type)).toEqual(['transcript_review.verified', 'language.failed']);
  }, 90_000);
});
