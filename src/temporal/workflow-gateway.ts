import type { Client, SignalDefinition } from '@temporalio/client';
import type { Config } from '../config';
import type { LanguageWorkflowInput } from '../shared/project-contracts';
import type { ReviewStepResult } from '../shared/review-contracts';
import type { WebhookRetrySchedule } from '../shared/webhook-contracts';
import { cancelProjectWorkflows } from './cancel-project-workflows';
import { runningProjectWorkflows, type ProjectWorkflowSubjects } from './project-workflows-running';
import { sendReviewStep, type ReviewStep } from './send-review-step';
import { signalLanguagesAdded } from './signal-languages-added';
import { signalIfRunning } from './signal-waiting-workflow';
import { startLanguageRetry } from './start-language-retry';
import { startOrSignalProjectWorkflow, startProjectWorkflow } from './start-project-workflow';
import { startRegenerationWorkflow, type RegenerationRun } from './start-regeneration-workflow';
import { startReviewWorkflow } from './start-review-workflow';
import { startCommittedDeliveries, startWebhookDelivery } from './start-webhook-delivery';

// The one way the API, the console and the activities start, signal, update and cancel the
// service's workflows (docs/design.md#workflows): a typed method per call, each bounded by the
// process's Temporal call timeout and on its task queue. The files beside it hold one call each.

export interface WorkflowGatewaySettings {
  taskQueue: string;
  /** Every call is bounded: an unreachable Temporal fails the call instead of hanging it. */
  callTimeoutMs: number;
  /** A webhook delivery's retry schedule, which its workflow takes as input. */
  webhookRetry: WebhookRetrySchedule;
}

/** A process's own settings for its calls: its task queue, its Temporal call timeout, the webhook retry schedule. */
export const gatewaySettingsFrom = (config: Pick<Config, 'temporal' | 'webhooks'>): WorkflowGatewaySettings => ({
  taskQueue: config.temporal.taskQueue,
  callTimeoutMs: config.temporal.callTimeoutMs,
  webhookRetry: config.webhooks.retry,
});

type ProjectRef = { id: string; workspace_id: string };
type Warn = (message: string, fields: Record<string, unknown>) => void;

export function createWorkflowGateway(temporal: Client, settings: WorkflowGatewaySettings) {
  const options = { taskQueue: settings.taskQueue, timeoutMs: settings.callTimeoutMs };
  const deliveryOptions = { ...options, retry: settings.webhookRetry };
  return {
    /** The client itself, for what is not a workflow call of ours (describe, list, the Web UI's tools). */
    client: temporal,
    /** A project's workflow, started once (a YouTube source at create). */
    startProject: (project: ProjectRef) => startProjectWorkflow(temporal, settings.taskQueue, project, settings.callTimeoutMs),
    /** An upload's completion: starts the project's workflow or tells the running one. */
    completeUpload: (project: ProjectRef) => startOrSignalProjectWorkflow(temporal, options, project),
    /** Languages added: signal-with-start, so an ended project's workflow runs again. */
    addLanguages: (project: ProjectRef, locales: string[]) => signalLanguagesAdded(temporal, options, project, locales),
    /** A failed language's next attempt. */
    retryLanguage: (input: LanguageWorkflowInput & { workspaceId: string }) => startLanguageRetry(temporal, options, input),
    /** A paid regeneration's workflow; its id. */
    startRegeneration: (run: RegenerationRun) => startRegenerationWorkflow(temporal, options, run),
    /** A transcript review's workflow. */
    startReview: (project: ProjectRef) => startReviewWorkflow(temporal, options, project),
    /** A reviewer's claim or submission, as an update of the review's workflow. */
    sendReviewStep: (review: { project_id: string; workspace_id: string }, step: ReviewStep): Promise<ReviewStepResult> => sendReviewStep(temporal, options, review, step),
    /** A customer's cancel: the project's workflow and each open language's. */
    cancelProject: (projectId: string, openLocales: string[]) => cancelProjectWorkflows(temporal, settings.callTimeoutMs, projectId, openLocales),
    /** Which of a project's workflows still run, waiting up to `waitMs` for a settling project (docs/lifecycle.md#delete). */
    runningProjectWorkflows: (subjects: ProjectWorkflowSubjects, waitMs: number) => runningProjectWorkflows(temporal, subjects, { callTimeoutMs: settings.callTimeoutMs, waitMs }),
    /** One webhook delivery's workflow. */
    startDelivery: (delivery: Parameters<typeof startWebhookDelivery>[2]) => startWebhookDelivery(temporal, deliveryOptions, delivery),
    /** The deliveries a committed transaction created; one that fails to start is logged (the reconciler starts it). */
    startDeliveries: (projectId: string, deliveries: Parameters<typeof startCommittedDeliveries>[3], warn: Warn) => startCommittedDeliveries(temporal, deliveryOptions, projectId, deliveries, warn),
    /** A signal to a workflow that may have ended: whether it was running. */
    signalIfRunning: (workflowId: string, signal: SignalDefinition) => signalIfRunning(temporal, settings.callTimeoutMs, workflowId, signal),
  };
}

export type WorkflowGateway = ReturnType<typeof createWorkflowGateway>;
