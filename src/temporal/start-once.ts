import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { withTemporalDeadline } from './temporal-unavailable';

/**
 * Starts a workflow whose id names the thing it works on; starting it again while it runs is a
 * no-op. That is what lets a retried request, or a repeat after a crash or a 503, make a lost
 * start good without ever running two at once.
 */
export async function startOnce<T extends Workflow>(temporal: Client, timeoutMs: number, workflowType: string, options: WorkflowStartOptions<T>): Promise<void> {
  try {
    await withTemporalDeadline(temporal.connection, timeoutMs, () => temporal.workflow.start<T>(workflowType, options));
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
