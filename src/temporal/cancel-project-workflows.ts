import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { languageWorkflowId, projectWorkflowId } from '../shared/workflow-ids';
import { withTemporalDeadline } from './temporal-unavailable';

/**
 * Asks a project's workflow, and the workflows of its languages still open, to cancel
 * (docs/lifecycle.md#cancel). Each handles the cancellation by settling its money (the project
 * workflow: hold released, or open languages failed `cancelled` and refunded once; a language:
 * its attempt failed and refunded) before it ends. A workflow that is not running needs nothing:
 * a project workflow started later reads `cancelled_at` and settles at once. Cancelling twice is
 * harmless: Temporal keeps one cancel request.
 */
export async function cancelProjectWorkflows(temporal: Client, timeoutMs: number, projectId: string, openLocales: string[]): Promise<void> {
  const ids = [projectWorkflowId(projectId), ...openLocales.map((locale) => languageWorkflowId(projectId, locale))];
  for (const workflowId of ids) {
    try {
      await withTemporalDeadline(temporal.connection, timeoutMs, () => temporal.workflow.getHandle(workflowId).cancel());
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
}
