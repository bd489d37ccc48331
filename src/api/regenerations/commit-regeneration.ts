import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database';
import { countLanguageRegenerations, findRunningRegeneration } from '../../db/language-regenerations';
import { quoteRegeneration } from '../../db/language-segments';
import { findProjectById, type Project } from '../../db/projects';
import { findLanguageStatus, lockLanguage } from '../../db/project-languages';
import { startRegeneration } from '../../lifecycle/regeneration-lifecycle';
import { lockLiveProject } from '../projects/lock-live-project';
import type { RegenerationRun } from '../../temporal/start-regeneration-workflow';
import type { RegenerateBody } from './regenerate.schema';
import { assertRegenerable, languageNotCompleted, priceRegeneration, type RegenerationQuote } from './regeneration-quote';

type Trx = Transaction<Database>;

export type CommittedRegeneration =
  /** Nothing to change, or over the limit: nothing was charged or written. */
  { kind: 'unpaid'; quote: RegenerationQuote; project: Project } | { kind: 'charged'; quote: RegenerationQuote; run: RegenerationRun; project: Project };

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
  assertRegenerable(locale, language.status, await findRunningRegeneration(trx, projectId, locale), language.redub_revision !== null);
  const quote = priceRegeneration(project, await quoteRegeneration(trx, projectId, locale), input.body);
  if (quote.segments === 0 || !quote.within_limit) return { kind: 'unpaid', quote, project };

  const regenerationId = randomUUID();
  await startRegeneration(trx, {
    project,
    language,
    row: {
      id: regenerationId,
      segments: quote.segments,
      billable_seconds: quote.billable_seconds,
      credits: quote.credits,
      max_billable_seconds: quote.max_billable_seconds,
      idempotency_key: input.idempotencyKey,
    },
  });
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
