import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { ReconcileInput } from '../activities/reconciler.activities';

export const RECONCILER_SCHEDULE_ID = 'reconciler';

/** Creates the reconciler schedule unless it exists. Safe on every worker start. */
export async function ensureReconcilerSchedule(client: Client, taskQueue: string, options: { scheduleId?: string; every?: string; input?: ReconcileInput } = {}): Promise<string> {
  const scheduleId = options.scheduleId ?? RECONCILER_SCHEDULE_ID;
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: options.every ?? '3 minutes' }] },
      action: { type: 'startWorkflow', workflowType: 'reconcilerWorkflow', workflowId: scheduleId, taskQueue, args: [options.input ?? {}] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  return scheduleId;
}
