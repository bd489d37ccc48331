import { proxyActivities } from '@temporalio/workflow';
import type { BillingActivities, CreditGrantInput, CreditGrantResult } from '../activities/billing.activities';
import { SHORT_DB_STEP } from './activity-profiles';

const { applyCreditGrant } = proxyActivities<BillingActivities>(SHORT_DB_STEP);

/**
 * Grants credits to a workspace (operator console). Durable: once started, the grant lands even
 * if the console or a worker dies; the workflow id and ledger reference make it exactly-once.
 * A reference already used by a different grant comes back as a conflict, with nothing written.
 */
export async function creditGrantWorkflow(input: CreditGrantInput): Promise<CreditGrantResult> {
  return applyCreditGrant(input);
}
