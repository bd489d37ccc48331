import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhook.activities';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from '../shared/webhook-contracts';
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

/** How often a delivery queued behind an earlier one of its project looks again, at most. */
const MAX_QUEUE_CHECK_MS = 15_000;

/**
 * One delivery of one event to one endpoint: `webhook-delivery/<delivery id>`. It waits until
 * every earlier event of the same project has been delivered to that endpoint or given up (so
 * events arrive in sequence order), then attempts it: a 2xx delivers it; anything else (another
 * status, a redirect, a timeout, a refused target) is retried after 1, 2, 4 … times the initial
 * interval, capped, until the window closes and the delivery is given up. Each attempt is an
 * activity in this history and a row in the endpoint's delivery log.
 */
export async function webhookDeliveryWorkflow({ deliveryId, retry }: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  let queueCheck = 500;
  while (await db.webhookDeliveryBlocked(deliveryId)) {
    await sleep(queueCheck);
    queueCheck = Math.min(queueCheck * 2, MAX_QUEUE_CHECK_MS);
  }

  const windowEnds = Date.now() + retry.windowSeconds * 1000;
  let interval = retry.initialIntervalSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    const result = await send.attemptWebhookDelivery({ deliveryId, attempt });
    if (result.outcome !== 'pending') return { status: result.outcome, attempts: attempt };
    if (Date.now() + interval > windowEnds) {
      await db.giveUpWebhookDelivery(deliveryId);
      return { status: 'failed', attempts: attempt };
    }
    await sleep(interval);
    interval = Math.min(interval * 2, retry.maximumIntervalSeconds * 1000);
  }
}
