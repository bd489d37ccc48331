import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileInput, ReconcileResult, ReconcilerActivities } from '../activities/reconciler.activities';
import { SHORT_DB_STEP } from './activity-profiles';

const { reconcile } = proxyActivities<ReconcilerActivities>({ ...SHORT_DB_STEP, startToCloseTimeout: '5 minutes' });

/**
 * Run by the `reconciler` schedule: repairs projects, languages and holds that no workflow will
 * settle. Its result lists every repair, so the Web UI shows what each pass did.
 */
export async function reconcilerWorkflow(input: ReconcileInput = {}): Promise<ReconcileResult> {
  return reconcile(input);
}
