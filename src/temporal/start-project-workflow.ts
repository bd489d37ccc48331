import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { uploadCompletedSignal, type ProjectWorkflowInput } from '../shared/project-contracts';
import { withTemporalDeadline } from './temporal-unavailable';
import { projectSearchAttributes } from '../shared/search-attributes';
import { projectWorkflowId } from '../shared/workflow-ids';

/**
 * Starts the project's workflow; starting it again is a no-op, because the workflow id is the
 * project id. That is what lets a retried create resume safely after a crash.
 */
export async function startProjectWorkflow(
  temporal: Client,
  taskQueue: string,
  project: { id: string; workspace_id: string },
  timeoutMs = 5000,
): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  try {
    await withTemporalDeadline(temporal.connection, timeoutMs, () =>
      temporal.workflow.start('projectWorkflow', {
        taskQueue,
        workflowId: projectWorkflowId(project.id),
        args: [input],
        typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Starts the project's workflow, or signals the run that is already there: exactly one run per
 * project, however often it is called. A closed run is started again, which is safe because the
 * project workflow picks up from what the database says is done.
 */
export async function startOrSignalProjectWorkflow(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number },
  project: { id: string; workspace_id: string },
): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  await withTemporalDeadline(temporal.connection, options.timeoutMs, () =>
    temporal.workflow.signalWithStart('projectWorkflow', {
      taskQueue: options.taskQueue,
      workflowId: projectWorkflowId(project.id),
      args: [input],
      signal: uploadCompletedSignal,
      signalArgs: [],
      typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
    }),
  );
}
