import { randomUUID } from 'node:crypto';
import type { ReconcileInput, ReconcileResult } from '../../src/activities/reconciler.activities';
import { ensureReconcilerSchedule } from '../../src/temporal/ensure-reconciler-schedule';
import type { TestApi } from './test-api';
import { waitFor } from './wait-for';

/**
 * Creates a reconciler schedule of the test's own on the API's task queue (a worker must poll
 * it), hands `use` a function that triggers one pass and returns its result, and deletes the
 * schedule afterwards. The schedule is hourly so it does not fire on its own during a test; if
 * it did, that would only be one more idempotent pass.
 */
export async function withReconcilerSchedule<T>(api: TestApi, input: ReconcileInput, use: (pass: () => Promise<ReconcileResult>) => Promise<T>): Promise<T> {
  const scheduleId = await ensureReconcilerSchedule(api.temporal, api.config.temporal.taskQueue, {
    scheduleId: `reconciler-test-${randomUUID()}`,
    every: '1 hour',
    input,
  });
  const handle = api.temporal.schedule.getHandle(scheduleId);
  const seen = new Set<string>();
  const pass = async (): Promise<ReconcileResult> => {
    await handle.trigger();
    const run = await waitFor(
      `reconciler schedule ${scheduleId} to start a run`,
      async () => {
        const { info } = await handle.describe();
        return info.recentActions.map((a) => a.action.workflow).find((w) => !seen.has(w.firstExecutionRunId));
      },
      30_000,
    );
    seen.add(run.firstExecutionRunId);
    return api.temporal.workflow.getHandle<() => Promise<ReconcileResult>>(run.workflowId, run.firstExecutionRunId).result();
  };
  try {
    return await use(pass);
  } finally {
    await handle.delete();
  }
}
