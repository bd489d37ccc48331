import { condition, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook.activities';
import { webhookQueueMovedSignal, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../shared/webhook-contracts';
import { SHORT_DB_STEP } from './activity-profiles';

const db = proxyActivities<WebhookActivities>(SHORT_DB_STEP);
// One attempt is one activity: its HTTP timeout is far inside this, and it heartbeats, so an
// attempt lost with its worker is sent again within seconds under the same attempt number
// (receivers dedupe on the delivery id).
const send = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * A delivery queued behind an earlier one waits for that one's signal; it looks again on its own
 * only this rarely, in case the signal was lost (the earlier run terminated between recording its
 * outcome and signalling). About ten history events each time: 48 hours of waiting stay under
 * 3,000 events, far from Temporal's limit of 51,200.
 */
const QUEUE_RECHECK_MS = 10 * 60_000;

/**
 * One delivery of one event to one endpoint: `webhook-delivery/<delivery id>`. It waits until
 * every earlier event of the same project has been delivered to that endpoint or given up (so
 * events arrive in sequence order), then attempts it: a 2xx delivers it; anything else (another
 * status, a redirect, a timeout, a refused target) is retried after 1, 2, 4 … times the initial
 * interval, capped, until the window closes and the delivery is given up. Its lifetime (waiting
 * included) is bounded too: once it is over, the delivery is given up, attempted or not. Either
 * way its end wakes the next delivery of the queue. Each attempt is an activity in this history
 * and a row in the endpoint's delivery log.
 */
export async function webhookDeliveryWorkflow({ deliveryId, retry, endsAtMs, attemptsMade = 0 }: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  // Runs started before lifetimes existed count theirs from their own start.
  const lifeEnds = endsAtMs ?? workflowInfo().runStartTime.getTime() + 2 * retry.windowSeconds * 1000;
  let queueMoved = false;
  setHandler(webhookQueueMovedSignal, () => {
    queueMoved = true;
  });

  // Cleared before each look, so a signal that arrives while the activity reads is not lost.
  for (queueMoved = false; await db.webhookDeliveryBlocked(deliveryId); queueMoved = false) {
    const left = lifeEnds - Date.now();
    if (left <= 0) break;
    await condition(() => queueMoved, Math.min(left, QUEUE_RECHECK_MS));
  }
  // No attempt starts after the lifetime: a delivery still queued then is given up unsent.
  if (Date.now() >= lifeEnds) return ended(deliveryId, { status: 'failed', attempts: attemptsMade }, true);

  const windowEnds = Math.min(Date.now() + retry.windowSeconds * 1000, lifeEnds);
  let interval = retry.initialIntervalSeconds * 1000;
  // A run started again goes on numbering, so the delivery log keeps the earlier run's attempts.
  for (let attempt = attemptsMade + 1; ; attempt++) {
    const result = await send.attemptWebhookDelivery({ deliveryId, attempt });
    if (result.outcome !== 'pending') return ended(deliveryId, { status: result.outcome, attempts: attempt }, false);
    if (Date.now() + interval > windowEnds) return ended(deliveryId, { status: 'failed', attempts: attempt }, true);
    await sleep(interval);
    interval = Math.min(interval * 2, retry.maximumIntervalSeconds * 1000);
  }
}

async function ended(deliveryId: string, result: WebhookDeliveryResult, giveUp: boolean): Promise<WebhookDeliveryResult> {
  if (giveUp) await db.giveUpWebhookDelivery(deliveryId);
  await db.releaseWebhookQueue(deliveryId);
  return result;
}
