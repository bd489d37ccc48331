import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { CreditGrantInput, CreditGrantResult } from '../activities/billing.activities';
import { creditGrantWorkflowId } from '../shared/workflow-ids';
import type { creditGrantWorkflow } from '../workflows/credit-grant.workflow';

// An operator's grant reference (an invoice number, say) names a grant within one workspace:
// `invoice-1042` may be granted once to workspace A and once to workspace B. The ledger's
// reference column is unique across all workspaces, so the workspace becomes part of it.

export function grantLedgerReference(workspaceId: string, operatorReference: string): string {
  return `grant:${workspaceId}:${operatorReference}`;
}

/** Our own run only waits behind a run of the same grant this many times before giving up. */
const BUSY_RETRIES = 3;

/**
 * Runs the durable grant and returns what *this* run found. The workflow id is reused: after an
 * earlier run of the same grant closed, a new run starts and checks the ledger against this
 * grant's amount. While another console runs the same grant, we wait for it and then start our
 * own run, rather than report that run's result as ours (its amount may differ).
 */
export async function runCreditGrant(client: Client, taskQueue: string, input: CreditGrantInput): Promise<CreditGrantResult> {
  const workflowId = creditGrantWorkflowId(input.reference);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await client.workflow.start<typeof creditGrantWorkflow>('creditGrantWorkflow', {
        taskQueue,
        workflowId,
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        args: [input],
      });
      return await handle.result();
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError) || attempt >= BUSY_RETRIES) throw err;
      // Its outcome (even a failure) is not ours to report: wait for it to close, then retry.
      await client.workflow
        .getHandle(workflowId)
        .result()
        .catch(() => undefined);
    }
  }
}
