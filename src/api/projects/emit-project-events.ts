import type { Logger } from '../../logger';
import { startWebhookDelivery } from '../../temporal/start-webhook-delivery';
import { recordProjectEvents, type NewDelivery } from '../../webhooks/record-project-events';
import type { AppDeps } from '../app-deps';

/**
 * Writes the webhook events a change the API made itself calls for (a cancel settled at once, a
 * delete), exactly as the workflows' emitter does, then starts their deliveries.
 */
export async function emitProjectEvents(deps: AppDeps, projectId: string): Promise<void> {
  const { deliveries } = await recordProjectEvents(deps.db, projectId, deps.config.http.publicBaseUrl);
  await startDeliveries(deps, projectId, deliveries);
}

/**
 * Starts the workflows of deliveries a committed transaction created. A start that fails is
 * logged, not thrown: the change is committed, and the reconciler starts a pending delivery that
 * has no workflow (docs/webhooks.md).
 */
export async function startDeliveries(deps: AppDeps, projectId: string, deliveries: readonly NewDelivery[]): Promise<void> {
  const options = { taskQueue: deps.config.temporal.taskQueue, timeoutMs: deps.config.temporal.callTimeoutMs, retry: deps.config.webhooks.retry };
  for (const d of deliveries) {
    await startWebhookDelivery(deps.temporal, options, { id: d.id, projectId, workspaceId: d.workspace_id, createdAt: d.created_at }).catch((error: unknown) => logLost(deps.logger, projectId, error));
  }
}

function logLost(logger: Logger, projectId: string, error: unknown): void {
  logger.warn('webhook delivery not started; the reconciler will start it', { projectId, error: error instanceof Error ? error.message : String(error) });
}
