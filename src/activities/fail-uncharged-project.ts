import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import { releaseHold } from '../db/credits';
import { updateProject, type Project, type UsageState } from '../db/projects';

/**
 * Ends a project that was never charged: its whole hold goes back to the workspace. The caller
 * owns the transaction; the release's ledger reference makes a repeat a no-op.
 */
export async function failUnchargedProject(
  trx: Transaction<Database>,
  project: Pick<Project, 'id' | 'workspace_id' | 'hold_reference'>,
  failure: { code: string; message: string; usageState: UsageState; detail?: string },
): Promise<void> {
  await releaseHold(trx, { workspaceId: project.workspace_id, holdReference: project.hold_reference, reference: `${project.id}:release`, projectId: project.id, description: failure.code });
  await updateProject(trx, project.id, {
    status: 'failed',
    phase: 'failed',
    failure_code: failure.code,
    failure_message: failure.message,
    failure_detail: failure.detail ?? null,
    usage_state: failure.usageState,
    completed_at: new Date(),
  });
}
