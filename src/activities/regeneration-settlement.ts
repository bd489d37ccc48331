import type { Db } from '../db/create-db';
import { refundCredits } from '../db/credits';
import { lockRegeneration, updateRegeneration, type LanguageRegeneration } from '../db/language-regenerations';
import { lockExistingProject, lockLanguage, updateLanguage, updateProject } from '../db/projects';
import { regenerationRefundReference } from '../shared/ledger-references';

// How a paid regeneration (docs/editing.md#regenerate) ends when it does not publish: `failed`
// with its code and its charge refunded once. Shared by the regeneration workflow's own fail
// step and by the reconciler, which settles a regeneration whose workflow stopped without
// settling it (docs/money.md#the-reconciler): both go through the row's lock and its status, so
// whichever comes second changes nothing.

/** `terminated`: its workflow stopped (terminated or timed out from the Web UI) without settling it. */
export type RegenerationFailureCode = 'engine_failed' | 'cancelled' | 'internal_error' | 'terminated';

export type RegenerationState =
  | { state: 'running'; fromRevision: number }
  | { state: 'completed'; revision: number }
  | { state: 'failed'; failureCode: string | null };

export const regenerationStateOf = (row: LanguageRegeneration): RegenerationState =>
  row.status === 'running' ? { state: 'running', fromRevision: row.from_revision }
  : row.status === 'completed' ? { state: 'completed', revision: row.to_revision ?? row.from_revision + 1 }
  : { state: 'failed', failureCode: row.failure_code };

/**
 * Fails a running regeneration and refunds its charge once (`<project>:regen:<id>:refund`), in
 * one transaction; the seconds it charged count as refunded on the language and the project.
 * A regeneration that already ended is left as it is: `settled` is false and the state is
 * what the row says. Undefined when there is no such row.
 */
export async function failRegeneration(db: Db, input: { regenerationId: string; code: RegenerationFailureCode }): Promise<{ settled: boolean; state: RegenerationState } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await lockRegeneration(trx, input.regenerationId);
    if (!row) return undefined;
    if (row.status !== 'running') return { settled: false, state: regenerationStateOf(row) };
    const refunded = row.credits > 0 && await refundCredits(trx, {
      workspaceId: row.workspace_id,
      reference: regenerationRefundReference(row.project_id, row.id),
      amount: row.credits,
      projectId: row.project_id,
      description: `regeneration of ${row.locale} failed`,
    });
    if (refunded) {
      // The commit counted these seconds as charged on the project and the language; given
      // back, they count as refunded, as a failed language's are (docs/money.md).
      const project = await lockExistingProject(trx, row.project_id);
      const language = await lockLanguage(trx, row.project_id, row.locale);
      const seconds = row.billable_seconds;
      await updateLanguage(trx, row.project_id, row.locale, { charged_seconds: language.charged_seconds - seconds, refunded_seconds: language.refunded_seconds + seconds });
      await updateProject(trx, row.project_id, { charged_seconds: project.charged_seconds - seconds, refunded_seconds: project.refunded_seconds + seconds, ...(project.charged_seconds - seconds > 0 ? {} : { usage_state: 'refunded' }) });
    }
    await updateRegeneration(trx, row.id, { status: 'failed', failure_code: input.code, completed_at: new Date(), refunded_credits: refunded ? row.credits : row.refunded_credits });
    return { settled: true, state: { state: 'failed', failureCode: input.code } };
  });
}
