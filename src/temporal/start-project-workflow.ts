import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { ProjectWorkflowInput } from '../shared/project-contracts';
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
): Promise<void> {
  const input: ProjectWorkflowInput = { projectId: project.id };
  try {
    await temporal.workflow.start('projectWorkflow', {
      taskQueue,
      workflowId: projectWorkflowId(project.id),
      args: [input],
      typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
