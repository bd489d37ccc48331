import { recordProjectEvents, type NewDelivery } from '../../webhooks/record-project-events';
import type { AppDeps } from '../app-deps';
import { workflowsOf } from '../workflow-gateway';

/**
 * Writes the webhook events a change the API made itself calls for (a cancel settled at once, a
 * delete), exactly as the workflows' emitter does, then starts their deliveries.
 */
export async function emitProjectEvents(deps: AppDeps, projectId: string): Promise<void> {
  const { deliveries } = await recordProjectEvents(deps.db, projectId, deps.config.http.publicBaseUrl);
  await startDeliveries(deps, projectId, deliveries);
}

/** The deliveries a committed change created, started with the API's logger. */
export async function startDeliveries(deps: AppDeps, projectId: string, deliveries: readonly NewDelivery[]): Promise<void> {
  await workflowsOf(deps).startDeliveries(projectId, deliveries, (message, fields) => deps.logger.warn(message, fields));
}
