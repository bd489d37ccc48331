import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';

export const UPLOAD_EXPIRY_SCHEDULE_ID = 'upload-expiry';

/** Creates the schedule that settles abandoned uploads, unless it exists. Safe on every start. */
export async function ensureUploadExpirySchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: UPLOAD_EXPIRY_SCHEDULE_ID,
      spec: { intervals: [{ every: '5 minutes' }] },
      action: { type: 'startWorkflow', workflowType: 'uploadExpiryWorkflow', workflowId: UPLOAD_EXPIRY_SCHEDULE_ID, taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
