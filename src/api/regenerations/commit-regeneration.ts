import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { chargeCredits } from '../../db/credits';
import type { Database } from '../../db/database';
import { countLanguageRegenerations, findRunningRegeneration, insertLanguageRegeneration } from '../../db/language-regenerations';
import { quoteRegeneration } from '../../db/language-segments';
import { findLanguageStatus, findProjectById, lockLanguage, updateLanguage, updateProject, type Project } from '../../db/projects';
import { regenerationChargeReference } from '../../shared/ledger-references';
import type { RegenerationRun } from '../../temporal/start-regeneration-workflow';
import type { RegenerateBody } from './regenerate.schema';
import { assertRegenerable, languageNotCompleted, priceRegeneration, type RegenerationQuote } from './regeneration-quote';
import { lockLiveProject } from '../projects/lock-live-project';

type Trx = Transaction<Database>;

export type CommittedRegeneration =
  /** Nothing to change, or over the limit: nothing was charged or written. */
  | { kind: 'unpaid'; quote: RegenerationQuote; project: Project }
  | { kind: 'charged'; quote: RegenerationQuote; run: RegenerationRun; project: Project };

/**
 * Charges a regeneration of a language's changed lines and records it, in the caller's
 * transaction (docs/editing.md#regenerate). The project row and then the language row are locked
 * (the order every settlement takes), so the 409 checks, the quote and the charge see one state:
 * a concurrent commit waits and then finds this one running, and an edit that takes the language
 * lock lands before the quote or after the run began. Then:
 * - the charge goes through the ledger as `<project>:regen:<regeneration id>`;
 * - the `language_regenerations` row records it (`running`, from the current revision);
 * - the language's and the project's `charged_seconds` count it, as any charge does, so
 *   a refund can give back exactly what this row says;
 * - the row's number among the language's regenerations names its workflow.
 * Throws InsufficientCreditsError (nothing charged) when the credits fall short.
 */
export async function commitRegeneration(trx: Trx, input: { projectId: string; locale: string; body: RegenerateBody; idempotencyKey: string }): Promise<CommittedRegeneration> {
  const { projectId, locale } = input;
  const project = await lockLiveProject(trx, projectId);
  // Language rows are never deleted, so one missing now stays missing under the lock.
  if (!(await findLanguageStatus(trx, projectId, locale))) throw languageNotCompleted(locale, undefined);
  const language = await lockLanguage(trx, projectId, locale);
  assertRegenerable(locale, language.status, await findRunningRegeneration(trx, projectId, locale));
  const quote = priceRegeneration(project, await quoteRegeneration(trx, projectId, locale), input.body);
  if (quote.segments === 0 || !quote.within_limit) return { kind: 'unpaid', quote, project };

  const regenerationId = randomUUID();
  const reference = regenerationChargeReference(projectId, regenerationId);
  const charged = await chargeCredits(trx, {
    workspaceId: project.workspace_id,
    reference,
    amount: quote.credits,
    projectId,
    description: `regeneration of ${locale}: ${quote.segments} line(s), ${quote.billable_seconds} s`,
  });
  // The id was made just now, so its charge cannot exist.
  if (!charged) throw new Error(`ledger already holds ${reference}`);
  await insertLanguageRegeneration(trx, {
    id: regenerationId,
    project_id: projectId,
    workspace_id: project.workspace_id,
    locale,
    segments: quote.segments,
    billable_seconds: quote.billable_seconds,
    credits: quote.credits,
    max_billable_seconds: quote.max_billable_seconds,
    from_revision: language.revision,
    idempotency_key: input.idempotencyKey,
  });
  await updateLanguage(trx, projectId, locale, { charged_seconds: language.charged_seconds + quote.billable_seconds });
  await updateProject(trx, projectId, { charged_seconds: project.charged_seconds + quote.billable_seconds, usage_state: 'charged' });
  const number = await countLanguageRegenerations(trx, projectId, locale);
  const updated = await findProjectById(trx, projectId);
  if (!updated) throw new Error(`project ${projectId} not found`);
  return {
    kind: 'charged',
    quote: { ...quote, charged_now_seconds: quote.billable_seconds },
    run: { regenerationId, projectId, workspaceId: project.workspace_id, locale, number },
    project: updated,
  };
}
