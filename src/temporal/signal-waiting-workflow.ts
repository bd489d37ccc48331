import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import { withTemporalDeadline } from './temporal-unavailable';

/**
 * Wakes a workflow that waits for news instead of polling. A workflow that is not running (not
 * started yet, or already ended) needs no wake-up: it reads the database when it starts, and
 * every waiter reads it again after its signal, so a signal lost this way loses nothing.
 */
export async function signalIfRunning(temporal: Client, timeoutMs: number, workflowId: string, signal: SignalDefinition): Promise<boolean> {
  try {
    await withTemporalDeadline(temporal.connection, timeoutMs, () => temporal.workflow.getHandle(workflowId).signal(signal));
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
