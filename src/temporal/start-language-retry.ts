import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { LanguageWorkflowInput } from '../shared/project-contracts';
import { languageSearchAttributes } from '../shared/search-attributes';
import { languageWorkflowId } from '../shared/workflow-ids';
import type { languageWorkflow } from '../workflows/language.workflow';
import { withTemporalDeadline } from './temporal-unavailable';

/**
 * Starts the next attempt of a language that the caller has already reopened (queued, paid for)
 * as a new run of `project/<id>/lang/<locale>`, the id every attempt shares. The run of the
 * failed attempt may still be finishing (it reports its failure as webhook events last): then
 * this waits for it to close, briefly, and starts the new run. A start lost altogether leaves a
 * queued language without a workflow, which the reconciler fails (`terminated`) and refunds.
 */
export async function startLanguageRetry(temporal: Client, options: { taskQueue: string; timeoutMs: number }, input: LanguageWorkflowInput & { workspaceId: string }): Promise<void> {
  const { workspaceId, ...args } = input;
  const start = () =>
    withTemporalDeadline(temporal.connection, options.timeoutMs, () =>
      temporal.workflow.start<typeof languageWorkflow>('languageWorkflow', {
        taskQueue: options.taskQueue,
        workflowId: languageWorkflowId(input.projectId, input.locale),
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        args: [args],
        typedSearchAttributes: languageSearchAttributes(input.projectId, workspaceId, input.locale),
      }),
    );
  for (let tries = 0; ; tries++) {
    try {
      await start();
      return;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError) || tries >= 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
