import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/create-db';
import { findReview } from '../db/transcript-reviews';
import { earlierDeliveryPending, giveUpDelivery, loadDelivery, nextInQueue, recordAttempt } from '../db/webhooks';
import { projectLanguagesChangedSignal } from '../shared/review-contracts';
import { webhookQueueMovedSignal, type ProjectStatuses, type WebhookAttemptResult, type WebhookRetrySchedule } from '../shared/webhook-contracts';
import { transcriptReviewWorkflowId, webhookDeliveryWorkflowId } from '../shared/workflow-ids';
import { createWorkflowGateway, type WorkflowGateway } from '../temporal/workflow-gateway';
import { eventBody } from '../webhooks/event-body';
import { postWebhook, type PostResult } from '../webhooks/post-webhook';
import { projectStatuses, relayEvents } from '../webhooks/relay-events';
import { openSecret } from '../webhooks/secret-box';
import { SIGNATURE_HEADER, signatureHeader } from '../webhooks/signature';
import { checkWebhookTarget, WebhookTargetError } from '../webhooks/target-guard';
import { activityLog } from './activity-log';

// Webhooks: the outbox relay the project, language and review workflows call after each step
// (the step's transitions appended its events: src/lifecycle/project-events.ts), and the steps of
// one delivery's workflow.

export interface WebhookSettings {
  /** Origin of the download_url links in payloads, as GET builds them. */
  publicBaseUrl: string;
  allowPrivateTargets: boolean;
  /** WEBHOOK_SECRET_KEY: endpoint secrets are stored sealed with it (src/webhooks/secret-box.ts). */
  secretKey: string;
  attemptTimeoutMs: number;
  retry: WebhookRetrySchedule;
}

export interface WebhookActivityDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  webhooks: WebhookSettings;
}

export const WEBHOOK_USER_AGENT = 'Dubbing-Webhooks/1.0 (+docs/webhooks.md)';

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;

/** Temporal calls of the relay: each bounded, so one slow call cannot eat the whole activity. */
export const TEMPORAL_CALL_MS = 10_000;
/** Starts in flight at once: a step that fans out to many endpoints finishes well inside 30 s. */
const START_CONCURRENCY = 8;

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/**
 * Heartbeats while `work` runs, so an attempt lost with its worker is retried within the
 * heartbeat timeout rather than the start-to-close one. Outside a worker (called directly) it
 * just runs `work`.
 */
async function heartbeating<T>(work: Promise<T>): Promise<T> {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return work;
  }
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), 2000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

export function createWebhookActivities({ db, temporal, taskQueue, webhooks }: WebhookActivityDeps) {
  const workflows = createWorkflowGateway(temporal, { taskQueue, callTimeoutMs: TEMPORAL_CALL_MS, webhookRetry: webhooks.retry });
  return {
    /**
     * The relay (its name kept from when it derived events, so recorded histories replay): starts
     * the deliveries of the project's events that no relay has started, and only those, so one
     * step of one project costs its own deliveries' starts however many older ones are still
     * pending (a receiver that is down). A start that fails fails the activity with the events
     * unmarked, and its retry starts them again; a delivery whose workflow is missing for any
     * other reason is the reconciler's (docs/webhooks.md#delivery-retries-ordering). Answers how many events it
     * relayed and the statuses it saw (the workflows show them as search attributes).
     */
    async emitProjectEvents(projectId: string): Promise<{ emitted: number; statuses: ProjectStatuses | null }> {
      const relayed = await relayEvents(db, projectId, (deliveries) =>
        inBatches(deliveries, START_CONCURRENCY, (d) => workflows.startDelivery({ id: d.id, projectId, workspaceId: d.workspace_id, createdAt: d.created_at })),
      );
      if (relayed.length > 0) {
        activityLog().info('webhook events relayed', { projectId, events: relayed.length, deliveries: relayed.reduce((n, e) => n + e.deliveries.length, 0) });
        // A language ended (every ending is an event): a verified review waiting for languages
        // still running from the machine transcript looks again (transcript-review.workflow.ts).
        if ((await findReview(db, projectId))?.status === 'verified') {
          await workflows.signalIfRunning(transcriptReviewWorkflowId(projectId), projectLanguagesChangedSignal);
        }
      }
      return { emitted: relayed.length, statuses: await projectStatuses(db, projectId) };
    },

    /** True while an earlier event of the same project is still being delivered to this endpoint. */
    async webhookDeliveryBlocked(deliveryId: string): Promise<boolean> {
      return earlierDeliveryPending(db, deliveryId);
    },

    /**
     * One attempt: sign, POST, record. A delivery that has already ended (a retried activity)
     * answers its outcome without sending; an endpoint deleted meanwhile gives it up.
     */
    async attemptWebhookDelivery(input: { deliveryId: string; attempt: number }): Promise<WebhookAttemptResult> {
      const row = await loadDelivery(db, input.deliveryId);
      if (!row) throw ApplicationFailure.nonRetryable(`no webhook delivery ${input.deliveryId}`, 'internal_error');
      if (row.status !== 'pending') return { outcome: row.status, statusCode: null, error: null };
      const record = async (result: PostResult, outcome: WebhookAttemptResult['outcome']): Promise<WebhookAttemptResult> => {
        await recordAttempt(db, {
          deliveryId: row.delivery_id,
          endpointId: row.endpoint_id,
          attempt: input.attempt,
          statusCode: result.statusCode,
          error: result.error,
          durationMs: result.durationMs,
          outcome,
        });
        return { outcome, statusCode: result.statusCode, error: result.error };
      };
      if (row.deleted_at !== null) return record({ statusCode: null, error: 'the endpoint was deleted; delivery given up', durationMs: 0 }, 'failed');

      const body = eventBody({
        id: row.event_id,
        type: row.type,
        created_at: row.event_created_at,
        sequence: row.sequence,
        project_id: row.project_id,
        discriminator: row.discriminator,
        payload: row.payload,
      });
      let result: PostResult;
      try {
        // Checked on every attempt: the name may resolve elsewhere by now.
        const target = await checkWebhookTarget(row.url, { allowPrivate: webhooks.allowPrivateTargets });
        // Signed at send time, so a receiver's timestamp tolerance holds for late retries too.
        const timestamp = Math.floor(Date.now() / 1000);
        result = await heartbeating(
          postWebhook(
            target,
            body,
            {
              'Content-Type': 'application/json',
              'User-Agent': WEBHOOK_USER_AGENT,
              'Dubbing-Event-Id': row.event_id,
              'Dubbing-Delivery-Id': row.delivery_id,
              'Dubbing-Delivery-Attempt': String(input.attempt),
              [SIGNATURE_HEADER]: signatureHeader(openSecret(webhooks.secretKey, row.endpoint_id, row.secret), timestamp, body),
            },
            webhooks.attemptTimeoutMs,
          ),
        );
      } catch (err) {
        if (!(err instanceof WebhookTargetError)) throw err;
        result = { statusCode: null, error: err.message, durationMs: 0 };
      }
      if (!is2xx(result.statusCode)) activityLog().warn('webhook attempt failed', { deliveryId: row.delivery_id, attempt: input.attempt, statusCode: result.statusCode, error: result.error });
      return record(result, is2xx(result.statusCode) ? 'delivered' : 'pending');
    },

    /** The retry window or the delivery's lifetime closed without a 2xx. */
    async giveUpWebhookDelivery(deliveryId: string): Promise<void> {
      await giveUpDelivery(db, deliveryId);
      activityLog().warn('webhook delivery given up', { deliveryId });
    },

    /**
     * The delivery has ended: wakes the next one(s) of its project to its endpoint, which wait
     * on this signal instead of polling. Returns the ids it woke.
     */
    async releaseWebhookQueue(deliveryId: string): Promise<string[]> {
      return releaseQueue({ db, workflows }, deliveryId);
    },
  };
}

/** Signals the deliveries that may go now that `deliveryId` has ended (the reconciler uses it too). */
export async function releaseQueue({ db, workflows }: { db: Db; workflows: WorkflowGateway }, deliveryId: string): Promise<string[]> {
  const next = await nextInQueue(db, deliveryId);
  const woken: string[] = [];
  for (const id of next) if (await workflows.signalIfRunning(webhookDeliveryWorkflowId(id), webhookQueueMovedSignal)) woken.push(id);
  return woken;
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
