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
