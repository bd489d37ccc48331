import { createWorkflowGateway, type WorkflowGateway } from '../temporal/workflow-gateway';
import type { AppDeps } from './app-deps';

const gateways = new WeakMap<AppDeps, WorkflowGateway>();

/** The API's workflow gateway (src/temporal/workflow-gateway.ts): its client, task queue and call timeout. */
export function workflowsOf(deps: AppDeps): WorkflowGateway {
  let gateway = gateways.get(deps);
  if (!gateway) {
    gateway = createWorkflowGateway(deps.temporal, { taskQueue: deps.config.temporal.taskQueue, callTimeoutMs: deps.config.temporal.callTimeoutMs, webhookRetry: deps.config.webhooks.retry });
    gateways.set(deps, gateway);
  }
  return gateway;
}
