import type { Transaction } from 'kysely';
import type { Db } from '../db/create-db';
import { chargeCredits, refundCredits } from '../db/credits';
import type { Database } from '../db/database';
import { lockRegeneration, type LanguageRegeneration } from '../db/language-regenerations';
import { lockExistingProject, type Project } from '../db/projects';
import { lockLanguage, updateLanguage, type ProjectLanguage } from '../db/project-languages';
import { insertLanguageRegeneration, writeRegenerationState } from '../db/status-writes';
import { regenerationChargeReference, regenerationRefundReference } from '../shared/ledger-references';
import { publishLanguageRevision } from './language-lifecycle';
import type { EventSettings } from './project-events';
import { moveProjectCharge } from './project-lifecycle';
import { assertMove } from './transition-table';

// A paid regeneration's transitions (docs/editing.md#regenerate, docs/design.md#lifecycle): it
// starts charged, and ends `completed` with the revision it published or `failed` with its code
// and its charge refunded once. Shared by the regeneration workflow's own fail
// step and by the reconciler, which settles a regeneration whose workflow stopped without
// settling it (docs/money.md#the-reconciler): both go through the row's lock and its status, so
// whichever comes second changes nothing.

/** `terminated`: its workflow stopped (terminated or timed out from the Web UI) without settling it. */
export type RegenerationFailureCode = 'engine_failed' | 'cancelled' | 'internal_error' | 'terminated';

export type RegenerationState = { state: 'running'; fromRevision: number } | { state: 'completed'; revision: number } | { state: 'failed'; failureCode: string | null };

export const regenerationStateOf = (row: LanguageRegeneration): RegenerationState =>
  row.status === 'running'
    ? { state: 'running', fromRevision: row.from_revision }
    : row.status === 'completed'
      ? { state: 'completed', revision: row.to_revision ?? row.from_revision + 1 }
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
    const refunded =
      row.credits > 0 &&
      (await refundCredits(trx, {
        workspaceId: row.workspace_id,
        reference: regenerationRefundReference(row.project_id, row.id),
        amount: row.credits,
        projectId: row.project_id,
        description: `regeneration of ${row.locale} failed`,
      }));
    if (refunded) {
      // The commit counted these seconds as charged on the project and the language; given
      // back, they count as refunded, as a failed language's are (docs/money.md).
      const project = await lockExistingProject(trx, row.project_id);
      const language = await lockLanguage(trx, row.project_id, row.locale);
      const seconds = row.billable_seconds;
      await updateLanguage(trx, row.project_id, row.locale, { charged_seconds: language.charged_seconds - seconds, refunded_seconds: language.refunded_seconds + seconds });
      await moveProjectCharge(trx, project, { chargedSeconds: -seconds, refundedSeconds: seconds });
    }
    assertMove('regeneration', row.id, row.status, 'failed');
    await writeRegenerationState(trx, row.id, { status: 'failed', failure_code: input.code, completed_at: new Date(), refunded_credits: refunded ? row.credits : row.refunded_credits });
    return { settled: true, state: { state: 'failed', failureCode: input.code } };
  });
}

/**
 * [*] → running: the regeneration's charge (`<project>:regen:<id>:charge`, its id made by the
 * caller just now, so the reference cannot exist), its row, and its seconds counted as charged
 * on the language and the project, in the caller's transaction. Throws InsufficientCreditsError
 * (nothing charged) when the credits fall short.
 */
export async function startRegeneration(
  trx: Transaction<Database>,
  input: { project: Project; language: ProjectLanguage; row: Omit<Parameters<typeof insertLanguageRegeneration>[1], 'project_id' | 'workspace_id' | 'locale' | 'from_revision'> },
): Promise<LanguageRegeneration> {
  const { project, language, row } = input;
  const reference = regenerationChargeReference(project.id, row.id);
  const charged = await chargeCredits(trx, {
    workspaceId: project.workspace_id,
    reference,
    amount: row.credits,
    projectId: project.id,
    description: `regeneration of ${language.locale}: ${row.segments} line(s), ${row.billable_seconds} s`,
  });
  if (!charged) throw new Error(`ledger already holds ${reference}`);
  const regeneration = await insertLanguageRegeneration(trx, { ...row, project_id: project.id, workspace_id: project.workspace_id, locale: language.locale, from_revision: language.revision });
  await updateLanguage(trx, project.id, language.locale, { charged_seconds: language.charged_seconds + row.billable_seconds });
  await moveProjectCharge(trx, project, { chargedSeconds: row.billable_seconds });
  return regeneration;
}

/**
 * running → completed: the locked regeneration published `revision` (its files and lines switched
 * by the caller, in the same transaction), news as the language's completion of that revision.
 */
export async function completeRegeneration(
  trx: Transaction<Database>,
  row: Pick<LanguageRegeneration, 'id' | 'status' | 'project_id' | 'locale'>,
  revision: number,
  events: EventSettings,
): Promise<void> {
  assertMove('regeneration', row.id, row.status, 'completed');
  await writeRegenerationState(trx, row.id, { status: 'completed', to_revision: revision, completed_at: new Date() });
  await publishLanguageRevision(trx, { projectId: row.project_id, locale: row.locale }, events);
}
