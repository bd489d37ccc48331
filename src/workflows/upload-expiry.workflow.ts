import { proxyActivities } from '@temporalio/workflow';
import type { UploadExpiryActivities, UploadExpiryResult } from '../activities/upload-expiry.activities';
import type { WebhookActivities } from '../activities/webhook.activities';
import { SHORT_DB_STEP } from './activity-profiles';

const { expireAbandonedUploads } = proxyActivities<UploadExpiryActivities>({ ...SHORT_DB_STEP, startToCloseTimeout: '5 minutes' });
const webhooks = proxyActivities<WebhookActivities>(SHORT_DB_STEP);

/** Run by the `upload-expiry` schedule: settles upload projects whose window closed. */
export async function uploadExpiryWorkflow(): Promise<UploadExpiryResult> {
  const result = await expireAbandonedUploads();
  // Each expired project failed: its project.failed webhook event.
  for (const projectId of result.expiredProjects ?? []) await webhooks.emitProjectEvents(projectId);
  return result;
}
