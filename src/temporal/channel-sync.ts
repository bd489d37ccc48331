import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { channelScheduleId, channelWorkflowId } from '../shared/workflow-ids';
import type { channelSyncWorkflow } from '../workflows/channel-sync.workflow';

// Each connected channel has a schedule (`channel-sync/<id>`) that runs its mirror workflow
// (`channel/<id>`) every few minutes, both visible in the Temporal Web UI.

/** Runs the channel's sync now, unless a run is already going (then that one will do). */
export async function startChannelSync(client: Client, taskQueue: string, channelId: string): Promise<{ workflowId: string; started: boolean }> {
  const workflowId = channelWorkflowId(channelId);
  try {
    await client.workflow.start<typeof channelSyncWorkflow>('channelSyncWorkflow', { taskQueue, workflowId, args: [channelId], workflowIdReusePolicy: 'ALLOW_DUPLICATE' });
    return { workflowId, started: true };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw err;
  }
}

export async function ensureChannelSyncSchedule(client: Client, taskQueue: string, channelId: string, everyMinutes: number): Promise<string> {
  const scheduleId = channelScheduleId(channelId);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: `${everyMinutes} minutes` }] },
      action: { type: 'startWorkflow', workflowType: 'channelSyncWorkflow', workflowId: channelWorkflowId(channelId), taskQueue, args: [channelId] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  return scheduleId;
}

export async function removeChannelSyncSchedule(client: Client, channelId: string): Promise<void> {
  try {
    await client.schedule.getHandle(channelScheduleId(channelId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
