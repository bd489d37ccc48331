import { ActivityCancellationType, patched, proxyActivities, workflowInfo, type ActivityInterfaceFor, type ActivityOptions } from '@temporalio/workflow';
import type { RoutingActivities } from '../activities/routing.activities';
import type { MediaNeed } from '../shared/task-queues';
import { LONG_MEDIA_STEP, SHORT_DB_STEP } from './activity-profiles';

const routing = proxyActivities<RoutingActivities>(SHORT_DB_STEP);

/**
 * A media step that is cancelled is waited for until its activity has stopped (it hears the
 * cancel on its next heartbeat and kills its processes): a workflow that has settled has no media
 * activity left running, so a closed workflow means nothing of the project runs (docs/lifecycle.md#delete).
 * The SDK's default (TRY_CANCEL) settled at once while ffmpeg went on storing clips. Histories
 * recorded before the change replay with the old behaviour (`patched`).
 */
export function settlesAfterCancel(profile: ActivityOptions): ActivityOptions {
  return patched('media-steps-wait-for-cancellation') ? { ...profile, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } : profile;
}

/**
 * Media activities scheduled on the queue of a worker pool that serves `need` (asked once, from
 * the database, by an activity whose answer the history keeps). Workflows and the short database
 * steps stay on the workflow's own queue; only this CPU-bound work moves to the media workers.
 * The queue comes along, for a step of the same pool with another profile. The proxy comes wrapped: a promise resolving to the proxy itself would be probed for `then`,
 * which the proxy answers with an activity of that name.
 */
export async function mediaActivitiesFor<A>(need: MediaNeed, profile: ActivityOptions = LONG_MEDIA_STEP): Promise<{ activities: ActivityInterfaceFor<A>; taskQueue: string }> {
  const { taskQueue } = await routing.findMediaQueue({ taskQueue: workflowInfo().taskQueue, locale: need.locale, role: need.role, ...(need.projectId ? { projectId: need.projectId } : {}) });
  return { activities: proxyActivities<A>({ ...settlesAfterCancel(profile), taskQueue }), taskQueue };
}
