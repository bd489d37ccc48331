import { recordProjectEvents, type NewDelivery } from '../../webhooks/record-project-events';
import type { AppDeps } from '../app-deps';
import { workflowsOf } from '../workflow-gateway';

/**
 * After a commit: starts the deliveries of the project's webhook events that the committed change
 * wrote (`written`, created inside the transaction) and any the project's state still calls for.
 */
export async function relayProjectEvents(deps: AppDeps, projectId: string, written: readonly NewDelivery[] = []): Promise<void> {
  const { deliveries } = await recordProjectEvents(deps.db, projectId, deps.config.http.publicBaseUrl);
  await workflowsOf(deps).startDeliveries(projectId, [...written, ...deliveries], (message, fields) => deps.logger.warn(message, fields));
}
