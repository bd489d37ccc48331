import { createWorkflowGateway, gatewaySettingsFrom, type WorkflowGateway } from '../temporal/workflow-gateway';
import type { CliContext } from './cli-context';

/** The console's workflow gateway (src/temporal/workflow-gateway.ts), dialling Temporal on first use like its client. */
export const workflowsOf = (ctx: CliContext): WorkflowGateway => createWorkflowGateway(ctx.temporal(), gatewaySettingsFrom(ctx.config));
