import type { Client } from '@temporalio/client';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import type { Project } from '../db/projects';
import { createWorkflowGateway } from '../temporal/workflow-gateway';
import type { WebhookRetrySchedule } from '../shared/webhook-contracts';
import { recordDueEvents, type NewDelivery } from '../webhooks/record-project-events';
import { activityLog } from './activity-log';
import { TEMPORAL_CALL_MS } from './webhook.activities';

export interface ReopenEventDeps {
  temporal: Client;
  taskQueue: string;
  webhooks: { publicBaseUrl: string; retry: WebhookRetrySchedule };
}

/**
 * The webhook side of one transaction that may reopen a failed language (a console retry, a Web
 * UI reset). `record` runs inside it, just before the reopen: it writes the events of the ending
 * the reopen overwrites, which the workflows' emitter, reading only the current state, would
 * never see (src/webhooks/record-project-events.ts, recordDueEvents). `start` runs after the
 * commit and starts their deliveries (through the workflow gateway).
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
      const workflows = createWorkflowGateway(deps.temporal, { taskQueue: deps.taskQueue, callTimeoutMs: TEMPORAL_CALL_MS, webhookRetry: deps.webhooks.retry });
      await workflows.startDeliveries(projectId, created, (message, fields) => activityLog().warn(message, fields));
    },
  };
}
