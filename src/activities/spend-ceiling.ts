import type { Transaction } from 'kysely';
import { releaseHold } from '../db/credits';
import type { Database } from '../db/database';
import { updateProject, type Project } from '../db/projects';

/** billable_seconds is a 32-bit column; nothing near this is dubbable (sources over 24 h are refused). */
export const MAX_BILLABLE_SECONDS = 2_147_483_647;

/** Whole seconds, rounded up, clamped to the column: what a source of this duration bills. */
export const billableSecondsFor = (durationSeconds: number): number =>
  Math.min(MAX_BILLABLE_SECONDS, Math.max(1, Math.ceil(durationSeconds - 1e-9)));

/**
 * The spend ceiling held: the source bills more than max_billable_seconds, so the whole hold is
 * released and the project fails with nothing charged. The caller owns the transaction.
 */
export async function stopOverCeiling(trx: Transaction<Database>, project: Project, billableSeconds: number): Promise<void> {
  await releaseHold(trx, { workspaceId: project.workspace_id, holdReference: project.hold_reference, projectId: project.id, reference: `${project.id}:release` });
  await updateProject(trx, project.id, {
    billable_seconds: billableSeconds,
    status: 'failed',
    phase: 'failed',
    usage_state: 'limit_exceeded',
    failure_code: 'max_billable_seconds_exceeded',
    failure_message: `The source is ${billableSeconds} billable seconds, above max_billable_seconds (${project.max_billable_seconds}); nothing was charged.`,
    validated_at: new Date(),
    completed_at: new Date(),
  });
}
