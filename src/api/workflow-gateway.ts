import { createWorkflowGateway, gatewaySettingsFrom, type WorkflowGateway } from '../temporal/workflow-gateway';
import type { AppDeps } from './app-deps';

/** The API's workflow gateway (src/temporal/workflow-gateway.ts), on its client and settings; cheap to make per call. */
export const workflowsOf = (deps: AppDeps): WorkflowGateway => createWorkflowGateway(deps.temporal, gatewaySettingsFrom(deps.config));
