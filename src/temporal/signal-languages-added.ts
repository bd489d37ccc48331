import type { Client } from '@temporalio/client';
import { languagesAddedSignal, type ProjectWorkflowInput } from '../shared/project-contracts';
import { projectSearchAttributes } from '../shared/search-attributes';
import { projectWorkflowId } from '../shared/workflow-ids';
import { withTemporalDeadline } from './temporal-unavailable';

/**
 * Tells the project's workflow that languages were added, starting a new run when the last one
 * has ended (signal-with-start on the project's workflow id: never two runs at once). Safe to
 * repeat: the workflow runs each open language once per run, and a new run starts from what the
 * database says is done. Throws TemporalUnavailableError (a 503) when Temporal is unreachable.
 */
export async function signalLanguagesAdded(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number },
  project: { id: string; workspace_id: string },
  locales: string[],
): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  await withTemporalDeadline(temporal.connection, options.timeoutMs, () =>
    temporal.workflow.signalWithStart('projectWorkflow', {
      taskQueue: options.taskQueue,
      workflowId: projectWorkflowId(project.id),
      args: [input],
      signal: languagesAddedSignal,
      signalArgs: [{ locales }],
      typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
    }),
  );
}
