import { relayEvents } from '../../webhooks/relay-events';
import type { AppDeps } from '../app-deps';
import { workflowsOf } from '../workflow-gateway';

/**
 * After a commit: starts the deliveries of the webhook events the committed change appended
 * (the lifecycle's transitions wrote them; docs/webhooks.md#delivery-retries-ordering). A start that fails is
 * logged, not thrown: the change is committed, and the reconciler starts a pending delivery that
 * has no workflow.
 */
export async function relayProjectEvents(deps: AppDeps, projectId: string): Promise<void> {
  await relayEvents(deps.db, projectId, (deliveries) => workflowsOf(deps).startDeliveries(projectId, deliveries, (message, fields) => deps.logger.warn(message, fields)));
}
