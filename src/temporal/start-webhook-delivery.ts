import type { Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { projectSearchAttributes } from '../shared/search-attributes';
import type { WebhookDeliveryInput, WebhookRetrySchedule } from '../shared/webhook-contracts';
import { webhookDeliveryWorkflowId } from '../shared/workflow-ids';
import type { webhookDeliveryWorkflow } from '../workflows/webhook-delivery.workflow';
import { startOnce } from './start-once';

/**
 * Starts the workflow of one delivery (`webhook-delivery/<delivery id>`). Starting it again is a
 * no-op while it runs or once it completed; only a run that failed or was terminated before it
 * recorded an outcome is started again, so every delivery ends delivered or given up. Its
 * lifetime counts from the delivery's creation, so a run started again does not extend it.
 */
export async function startWebhookDelivery(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number; retry: WebhookRetrySchedule },
  delivery: { id: string; projectId: string; workspaceId: string; createdAt: Date; attemptsMade?: number },
): Promise<void> {
  const input: WebhookDeliveryInput = {
    deliveryId: delivery.id,
    retry: options.retry,
    endsAtMs: delivery.createdAt.getTime() + options.retry.lifetimeSeconds * 1000,
    ...(delivery.attemptsMade ? { attemptsMade: delivery.attemptsMade } : {}),
  };
  await startOnce<typeof webhookDeliveryWorkflow>(temporal, options.timeoutMs, 'webhookDeliveryWorkflow', {
    taskQueue: options.taskQueue,
    workflowId: webhookDeliveryWorkflowId(delivery.id),
    args: [input],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    typedSearchAttributes: projectSearchAttributes(delivery.projectId, delivery.workspaceId),
  });
}

/**
 * Starts the workflows of deliveries a committed transaction created, one after another. A start
 * that fails is logged through `warn`, not thrown: the change is committed, and the reconciler
 * starts a pending delivery that has no workflow (docs/webhooks.md).
 */
export async function startCommittedDeliveries(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number; retry: WebhookRetrySchedule },
  projectId: string,
  deliveries: readonly { id: string; workspace_id: string; created_at: Date }[],
  warn: (message: string, fields: Record<string, unknown>) => void,
): Promise<void> {
  for (const d of deliveries) {
    await startWebhookDelivery(temporal, options, { id: d.id, projectId, workspaceId: d.workspace_id, createdAt: d.created_at }).catch((error: unknown) =>
      warn('webhook delivery not started; the reconciler will start it', { projectId, error: error instanceof Error ? error.message : String(error) }),
    );
  }
}
