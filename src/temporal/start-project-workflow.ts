import type { Client, SignalDefinition } from '@temporalio/client';
import { uploadCompletedSignal, type ProjectWorkflowInput } from '../shared/project-contracts';
import { projectSearchAttributes } from '../shared/search-attributes';
import { projectWorkflowId } from '../shared/workflow-ids';
import type { projectWorkflow } from '../workflows/project.workflow';
import { startOnce } from './start-once';
import { withTemporalDeadline } from './temporal-unavailable';

type ProjectRef = { id: string; workspace_id: string };

/**
 * Starts the project's workflow; starting it again is a no-op, because the workflow id is the
 * project id. That is what lets a retried create resume safely after a crash, and a replayed
 * create make sure its workflow started. Once a run has ever existed for the project (open or
 * closed), no start makes another: later runs come only from signalWithStart, on purpose.
 */
export async function startProjectWorkflow(temporal: Client, taskQueue: string, project: ProjectRef, timeoutMs = 5000): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  await startOnce<typeof projectWorkflow>(temporal, timeoutMs, 'projectWorkflow', {
    taskQueue,
    workflowId: projectWorkflowId(project.id),
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [input],
    typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
  });
}

/**
 * Signals the project's workflow, starting a run when none is open: exactly one run per project,
 * however often it is called. A closed run is started again, which is safe because the project
 * workflow picks up from what the database says is done. Throws TemporalUnavailableError (a
 * 503) when Temporal is unreachable.
 */
export async function signalWithStartProjectWorkflow(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number },
  project: ProjectRef,
  // One of the project workflow's signals, paired with its arguments by the typed callers
  // (startOrSignalProjectWorkflow, signalLanguagesAdded).
  signal: SignalDefinition<any[]>,
  signalArgs: unknown[],
): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  await withTemporalDeadline(temporal.connection, options.timeoutMs, () =>
    temporal.workflow.signalWithStart<typeof projectWorkflow, any[]>('projectWorkflow', {
      taskQueue: options.taskQueue,
      workflowId: projectWorkflowId(project.id),
      args: [input],
      signal,
      signalArgs,
      typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
    }),
  );
}

/** upload/complete: the project's source is in, its workflow may run. */
export function startOrSignalProjectWorkflow(temporal: Client, options: { taskQueue: string; timeoutMs: number }, project: ProjectRef): Promise<void> {
  return signalWithStartProjectWorkflow(temporal, options, project, uploadCompletedSignal, []);
}
