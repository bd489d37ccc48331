import { proxyActivities } from '@temporalio/workflow';
import type { UploadExpiryActivities, UploadExpiryResult } from '../activities/upload-expiry.activities';
import { SHORT_DB_STEP } from './activity-profiles';

const { expireAbandonedUploads } = proxyActivities<UploadExpiryActivities>({ ...SHORT_DB_STEP, startToCloseTimeout: '5 minutes' });

/** Run by the `upload-expiry` schedule: settles upload projects whose window closed. */
export async function uploadExpiryWorkflow(): Promise<UploadExpiryResult> {
  return expireAbandonedUploads();
}
