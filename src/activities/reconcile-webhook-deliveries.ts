import type { RawBuilder } from 'kysely';
import type { Db } from '../db/create-db';
import { giveUpDelivery, pendingQueueHeads } from '../db/webhooks';
import { webhookDeliveryWorkflowId } from '../shared/workflow-ids';
import type { WorkflowGateway } from '../temporal/workflow-gateway';
import type { Repair } from './reconciler.activities';
import { releaseQueue } from './webhook.activities';

// The reconciler's pass over webhook deliveries. A pending delivery whose workflow is gone (a
// start lost between a relay's commit and Temporal, a terminated run) would never be sent,
// and every later event of its project to its endpoint would wait behind it for good. So the
// head of each such queue is started again, once; if its workflow is gone again later, it is
// given up and the next delivery of the queue is woken. The workflow bounds its own life
// (WEBHOOK_DELIVERY_LIFETIME_SECONDS), so a restarted delivery past its lifetime ends at once.

const BATCH = 200;

export interface WebhookPassDeps {
  db: Db;
  workflows: WorkflowGateway;
  staleBefore: RawBuilder<Date>;
  workspaceId?: string;
  isRunning(workflowId: string): Promise<boolean>;
  recordOnce(repair: Repair): Promise<boolean>;
  forget(repair: Repair): Promise<void>;
  attempt(subject: string, work: () => Promise<Repair | undefined>): Promise<void>;
}

export async function reconcileWebhookDeliveries({ db, workflows, staleBefore, workspaceId, isRunning, recordOnce, forget, attempt }: WebhookPassDeps): Promise<void> {
  for (const delivery of await pendingQueueHeads(db, { staleBefore, workspaceId, limit: BATCH })) {
    const subject = webhookDeliveryWorkflowId(delivery.id);
    await attempt(subject, async () => {
      if (await isRunning(subject)) return undefined;
      const restart = { subject, kind: 'restart_webhook_delivery', detail: 'pending with no running workflow; started it again' };
      if (await recordOnce(restart)) {
        try {
          await workflows.startDelivery({ id: delivery.id, projectId: delivery.project_id, workspaceId: delivery.workspace_id, createdAt: delivery.created_at, attemptsMade: delivery.attempts });
        } catch (err) {
          // Not started: the next pass tries again rather than taking it for one that died twice.
          await forget(restart);
          throw err;
        }
        return restart;
      }
      const giveUp = { subject, kind: 'give_up_webhook_delivery', detail: 'pending with no running workflow again after a restart; gave it up and woke the next delivery' };
      if (!(await recordOnce(giveUp))) return undefined;
      await giveUpDelivery(db, delivery.id);
      await releaseQueue({ db, workflows }, delivery.id);
      return giveUp;
    });
  }
}
