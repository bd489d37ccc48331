import { proxyActivities, workflowInfo, type ActivityInterfaceFor, type ActivityOptions } from '@temporalio/workflow';
import type { RoutingActivities } from '../activities/routing.activities';
import type { MediaNeed } from '../shared/task-queues';
import { LONG_MEDIA_STEP, SHORT_DB_STEP } from './activity-profiles';

const routing = proxyActivities<RoutingActivities>(SHORT_DB_STEP);

/**
 * Media activities scheduled on the queue of a worker pool that serves `need` (asked once, from
 * the database, by an activity whose answer the history keeps). Workflows and the short database
 * steps stay on the workflow's own queue; only this CPU-bound work moves to the media workers.
 * The queue comes along, for a step of the same pool with another profile. The proxy comes wrapped: a promise resolving to the proxy itself would be probed for `then`,
 * which the proxy answers with an activity of that name.
 */
export async function mediaActivitiesFor<A>(need: MediaNeed, profile: ActivityOptions = LONG_MEDIA_STEP): Promise<{ activities: ActivityInterfaceFor<A>; taskQueue: string }> {
  const { taskQueue } = await routing.findMediaQueue({ taskQueue: workflowInfo().taskQueue, locale: need.locale, role: need.role, ...(need.projectId ? { projectId: need.projectId } : {}) });
  return { activities: proxyActivities<A>({ ...profile, taskQueue }), taskQueue };
}
