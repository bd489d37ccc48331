import type { Transaction } from 'kysely';
import { InsufficientCreditsError, refundCredits } from '../db/credits';
import { reopenFailedLanguage } from '../db/reopen-language';
import type { Database } from '../db/database';
import { listLanguageStatuses, lockExistingProject, lockLanguage, updateLanguage, updateProject, type Project, type ProjectStatus } from '../db/projects';
import { refundReference } from '../shared/ledger-references';
import type { RetryBilling } from '../shared/project-contracts';
import { publicFailureMessage, type LanguageFailureCode } from '../shared/failure-messages';
import { lockProjectToWrite } from './lock-project-to-write';

// How a language attempt opens, fails and settles, and what that means for its project. Every
// function takes the caller's transaction and is idempotent: ledger references are per project,
// locale and attempt, so a retried activity, a Web UI reset or the reconciler settles once.

type Trx = Transaction<Database>;

export type AttemptClaim =
  | { state: 'open'; attempt: number }
  /** Already delivered: never re-run, never refunded. */
  | { state: 'completed' }
  /** A retry that could not be paid for; the language stays failed. */
  | { state: 'refused'; code: 'insufficient_credits'; message: string };

const FINAL = ['completed', 'failed'] as const;
export const isFinalLanguage = (status: string) => (FINAL as readonly string[]).includes(status);


/**
 * Claims the right to work on a language for `attempt`. An open attempt carries on; a completed
 * language is left alone; a failed one is reopened as a new attempt, paid like a console retry
 * (charged again, or free and recorded for goodwill). That last case covers the console retry
 * and a Web UI reset of a failed language, wherever in the history the reset points.
 * `beforeReopen` runs under the locks just before a reopen (the caller records the webhook events
 * of the ending it overwrites: src/activities/reopen-events.ts).
 */
export async function claimAttempt(
  trx: Trx,
  input: { projectId: string; locale: string; attempt: number; billing?: RetryBilling },
  beforeReopen: (trx: Trx, project: Project) => Promise<void>,
): Promise<AttemptClaim> {
  const project = await lockProjectToWrite(trx, input.projectId);
  const language = await lockLanguage(trx, input.projectId, input.locale);
  if (language.status === 'completed') return { state: 'completed' };
  if (language.status !== 'failed') return { state: 'open', attempt: language.attempt };

  const attempt = Math.max(input.attempt, language.attempt + 1);
  await beforeReopen(trx, project);
  try {
    await reopenFailedLanguage(trx, { project, language, attempt, billing: input.billing ?? 'charge' });
  } catch (err) {
    if (!(err instanceof InsufficientCreditsError)) throw err;
    return { state: 'refused', code: 'insufficient_credits', message: `Retrying ${input.locale} costs ${err.requested} credits; the workspace has ${err.available} available. Grant credits or retry with --goodwill.` };
  }
  return { state: 'open', attempt };
}

/**
 * Fails a language and refunds what its attempt was charged, once. `attempt: 'current'` is for
 * callers that only know the language ended (a terminated child, the reconciler). A completed
 * language, or a newer attempt than the caller's, is left alone.
 */
export async function failAttempt(
  trx: Trx,
  input: { projectId: string; locale: string; attempt: number | 'current'; code: LanguageFailureCode; detail: string },
): Promise<{ failed: boolean; refundedSeconds: number }> {
  const project = await lockExistingProject(trx, input.projectId);
  // A deleted project ended before it was deleted: there is nothing left to fail or refund.
  if (project.deleted_at !== null) return { failed: false, refundedSeconds: 0 };
  const language = await lockLanguage(trx, input.projectId, input.locale);
  const attempt = input.attempt === 'current' ? language.attempt : input.attempt;
  if (language.status === 'completed' || language.attempt !== attempt) return { failed: false, refundedSeconds: 0 };
  if (language.status !== 'failed') {
    await updateLanguage(trx, project.id, input.locale, {
      status: 'failed',
      phase_message: null,
      failure_code: input.code,
      failure_message: publicFailureMessage(input.code, input.locale),
      failure_detail: input.detail,
    });
  }
  const amount = language.attempt_charged_seconds;
  if (amount <= 0) return { failed: true, refundedSeconds: 0 };
  const refunded = await refundCredits(trx, {
    workspaceId: project.workspace_id,
    reference: refundReference(project.id, input.locale, attempt),
    amount: amount * project.credits_per_second,
    projectId: project.id,
    description: `language ${input.locale} failed (attempt ${attempt})`,
  });
  if (!refunded) return { failed: true, refundedSeconds: 0 };
  await updateLanguage(trx, project.id, input.locale, { refunded_seconds: language.refunded_seconds + amount });
  await updateProject(trx, project.id, {
    charged_seconds: project.charged_seconds - amount,
    refunded_seconds: project.refunded_seconds + amount,
  });
  return { failed: true, refundedSeconds: amount };
}

/**
 * The project's status from its languages, once every language has ended: completed,
 * partially_completed or failed, with usage `refunded` when nothing stays charged. Recomputed
 * whenever a language ends, so a retry or reset that completes a language also fixes the
 * project. A project that was never charged (failed before validation) is left as it is.
 */
export async function recomputeProjectOutcome(trx: Trx, projectId: string): Promise<ProjectStatus> {
  const project = await lockExistingProject(trx, projectId);
  if (project.deleted_at !== null) return project.status; // ended before it was deleted, and stays so
  if (project.usage_state !== 'charged' && project.usage_state !== 'refunded') return project.status;
  const languages = await listLanguageStatuses(trx, projectId);
  if (languages.length === 0 || languages.some((l) => !isFinalLanguage(l.status))) return project.status;
  const completed = languages.filter((l) => l.status === 'completed').length;
  const status: ProjectStatus = completed === languages.length ? 'completed' : completed > 0 ? 'partially_completed' : 'failed';
  const usageState = project.charged_seconds > 0 ? 'charged' : 'refunded';
  const keepFailure = status === 'failed' && project.failure_code !== null;
  if (project.status === status && project.usage_state === usageState && project.completed_at && (status !== 'failed' || keepFailure)) return status;
  await updateProject(trx, projectId, {
    status,
    phase: status === 'failed' ? 'failed' : 'completed',
    usage_state: usageState,
    completed_at: project.completed_at ?? new Date(),
    ...(status === 'failed'
      ? keepFailure ? {} : { failure_code: 'engine_failed', failure_message: 'Every language failed; all charges were refunded.' }
      : { failure_code: null, failure_message: null, failure_detail: null }),
  });
  return status;
}
