import { proxyActivities } from '@temporalio/workflow';
import type { ChannelSyncActivities, ChannelSyncResult } from '../activities/channel-sync.activities';
import { QUOTA_BOUND_STEP } from './activity-profiles';

const { syncChannel } = proxyActivities<ChannelSyncActivities>(QUOTA_BOUND_STEP);

/**
 * `channel/<channelId>`: refreshes one connected channel's mirror. Started on connect and by the
 * channel's schedule; a quota error backs off and retries inside this run.
 */
export async function channelSyncWorkflow(channelId: string): Promise<ChannelSyncResult> {
  return syncChannel(channelId);
}
