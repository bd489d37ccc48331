import { createWorkflowGateway, type WorkflowGateway } from '../temporal/workflow-gateway';
import type { CliContext } from './cli-context';

const gateways = new WeakMap<CliContext, WorkflowGateway>();

/** The console's workflow gateway (src/temporal/workflow-gateway.ts), dialled on first use like its client. */
export function workflowsOf(ctx: CliContext): WorkflowGateway {
  let gateway = gateways.get(ctx);
  if (!gateway) {
    gateway = createWorkflowGateway(ctx.temporal(), { taskQueue: ctx.config.temporal.taskQueue, callTimeoutMs: ctx.config.temporal.callTimeoutMs, webhookRetry: ctx.config.webhooks.retry });
    gateways.set(ctx, gateway);
  }
  return gateway;
}
