import { startCommittedDeliveries } from '../../temporal/start-webhook-delivery';
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

/** startCommittedDeliveries with the API's Temporal settings and logger. */
export async function startDeliveries(deps: AppDeps, projectId: string, deliveries: readonly NewDelivery[]): Promise<void> {
  const options = { taskQueue: deps.config.temporal.taskQueue, timeoutMs: deps.config.temporal.callTimeoutMs, retry: deps.config.webhooks.retry };
  await startCommittedDeliveries(deps.temporal, options, projectId, deliveries, (message, fields) => deps.logger.warn(message, fields));
}
