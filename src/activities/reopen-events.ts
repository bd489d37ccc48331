import type { Client } from '@temporalio/client';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import type { Project } from '../db/projects';
import { startWebhookDelivery } from '../temporal/start-webhook-delivery';
import type { WebhookRetrySchedule } from '../shared/webhook-contracts';
import { recordDueEvents, type NewDelivery } from '../webhooks/record-project-events';
import { activityLog } from './activity-log';

export interface ReopenEventDeps {
  temporal: Client;
  taskQueue: string;
  webhooks: { publicBaseUrl: string; retry: WebhookRetrySchedule };
}

const TEMPORAL_CALL_MS = 10_000;

/**
 * The webhook side of one transaction that may reopen a failed language (a console retry, a Web
 * UI reset). `record` runs inside it, just before the reopen: it writes the events of the ending
 * the reopen overwrites, which the workflows' emitter, reading only the current state, would
 * never see (src/webhooks/record-project-events.ts, recordDueEvents). `start` runs after the
 * commit and starts their deliveries; a start that fails is logged, and the reconciler starts a
 * pending delivery that has no workflow (docs/webhooks.md).
 */
export function reopenEvents(deps: ReopenEventDeps) {
  const created: NewDelivery[] = [];
  let projectId = '';
  return {
    async record(trx: Transaction<Database>, project: Project): Promise<void> {
      projectId = project.id;
      created.push(...(await recordDueEvents(trx, project, deps.webhooks.publicBaseUrl)).deliveries);
    },
    async start(): Promise<void> {
      for (const d of created) {
        await startWebhookDelivery(deps.temporal, { taskQueue: deps.taskQueue, timeoutMs: TEMPORAL_CALL_MS, retry: deps.webhooks.retry }, { id: d.id, projectId, workspaceId: d.workspace_id, createdAt: d.created_at }).catch(
          (error: unknown) => activityLog().warn('webhook delivery not started; the reconciler will start it', { projectId, error: error instanceof Error ? error.message : String(error) }),
        );
      }
    },
  };
}
