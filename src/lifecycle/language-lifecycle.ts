import type { Transaction } from 'kysely';
import { chargeCredits, InsufficientCreditsError, refundCredits } from '../db/credits';
import type { Database } from '../db/database';
import type { Db } from '../db/create-db';
import { lockLanguage, type LanguageStatus, type ProjectLanguage } from '../db/project-languages';
import { lockExistingProject, type Project } from '../db/projects';
import { advanceOpenAttempt, insertAddedLanguages, writeLanguageState, writeProjectState } from '../db/status-writes';
import { chargeReference, refundReference } from '../shared/ledger-references';
import type { RetryBilling } from '../shared/project-contracts';
import { publicFailureMessage, type LanguageFailureCode } from '../shared/failure-messages';
import { lockProjectToWrite } from './lock-project-to-write';
import { appendProjectEvents, projectEvent, type EventSettings } from './project-events';
import { assertMove, sourcesOf } from './transition-table';

// A language's transitions (docs/design.md#lifecycle): an attempt opens, advances, completes or
// fails and is refunded, and a failed one reopens as a new attempt, paid. Every function takes
// the caller's transaction, checks its move against the transition table, appends the webhook
// events its move is news for (./project-events.ts) and is idempotent:
// ledger references are per project, locale and attempt, so a retried activity, a Web UI reset
// or the reconciler settles once.

type Trx = Transaction<Database>;

export type AttemptClaim =
  | { state: 'open'; attempt: number }
  /** Already delivered: never re-run, never refunded. */
  | { state: 'completed' }
  /** A retry that could not be paid for; the language stays failed. */
  | { state: 'refused'; code: 'insufficient_credits'; message: string };

const FINAL = ['completed', 'failed'] as const;
export const isFinalLanguage = (status: string) => (FINAL as readonly string[]).includes(status);

/** The language rows of an addition, queued for their first attempt (each charged by the caller). */
export async function queueAddedLanguages(trx: Trx, input: Parameters<typeof insertAddedLanguages>[1]): Promise<void> {
  await insertAddedLanguages(trx, input);
}

/**
 * Claims the right to work on a language for `attempt`. An open attempt carries on; a completed
 * language is left alone; a failed one is reopened as a new attempt, paid like a console retry
 * (charged again, or free and recorded for goodwill). That last case covers the console retry
 * and a Web UI reset of a failed language, wherever in the history the reset points. The ending
 * it reopens was news when it happened: its events are in the outbox already.
 */
export async function claimAttempt(trx: Trx, input: { projectId: string; locale: string; attempt: number; billing?: RetryBilling }): Promise<AttemptClaim> {
  const project = await lockProjectToWrite(trx, input.projectId);
  const language = await lockLanguage(trx, input.projectId, input.locale);
  if (language.status === 'completed') return { state: 'completed' };
  if (language.status !== 'failed') return { state: 'open', attempt: language.attempt };

  const attempt = Math.max(input.attempt, language.attempt + 1);
  try {
    await reopenLanguage(trx, { project, language, attempt, billing: input.billing ?? 'charge' });
  } catch (err) {
    if (!(err instanceof InsufficientCreditsError)) throw err;
    return {
      state: 'refused',
      code: 'insufficient_credits',
      message: `Retrying ${input.locale} costs ${err.requested} credits; the workspace has ${err.available} available. Grant credits or retry with --goodwill.`,
    };
  }
  return { state: 'open', attempt };
}

/**
 * failed → queued: reopens a failed language as attempt `attempt`, paid as `billing` says
 * (docs/money.md#retrying-a-failed-language): `charge` charges `billable_seconds ×
 * credits_per_second` under the attempt's own reference (`<p>:<l>:charge:<n>`, so a repeat
 * charges nothing more); `goodwill` charges nothing and records the seconds as goodwill; `free`
 * (the platform's failure) charges nothing. The project is back in processing. The caller holds
 * the project and language locks and passes the rows it read under them. Throws
 * InsufficientCreditsError, with nothing written, when the charge does not fit.
 */
export async function reopenLanguage(trx: Trx, input: { project: Project; language: ProjectLanguage; attempt: number; billing: RetryBilling }): Promise<{ chargedSeconds: number }> {
  const { project, language, attempt } = input;
  assertMove('language', `${project.id}/${language.locale}`, language.status, 'queued');
  assertMove('project', project.id, project.status, 'processing');
  const billable = project.billable_seconds ?? 0;
  const charged = input.billing === 'charge' ? billable : 0;
  if (charged > 0) {
    await chargeCredits(trx, {
      workspaceId: project.workspace_id,
      reference: chargeReference(project.id, language.locale, attempt),
      amount: charged * project.credits_per_second,
      projectId: project.id,
      description: `retry of ${language.locale}, attempt ${attempt}`,
    });
  }
  await writeLanguageState(trx, project.id, language.locale, {
    status: 'queued',
    percent: 0,
    phase_message: 'Retrying.',
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    completed_at: null,
    attempt,
    attempt_charged_seconds: charged,
    charged_seconds: language.charged_seconds + charged,
    goodwill_seconds: language.goodwill_seconds + (input.billing === 'goodwill' ? billable : 0),
  });
  await writeProjectState(trx, project.id, {
    status: 'processing',
    phase: 'dubbing',
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    completed_at: null,
    // New work after a cancel: the cancel no longer applies (docs/lifecycle.md#cancel).
    cancelled_at: null,
    charged_seconds: project.charged_seconds + charged,
    ...(charged > 0 ? { usage_state: 'charged' as const } : {}),
  });
  return { chargedSeconds: charged };
}

/**
 * The open attempt moves on to `status` (translating, dubbing, publishing) with its progress.
 * Written only from the table's sources of `status` and only while the attempt is open: a
 * replayed earlier step never moves a language backwards. Whether it was written.
 */
export async function advanceLanguage(
  db: Db,
  step: { projectId: string; locale: string; attempt: number },
  status: Extract<LanguageStatus, 'translating' | 'dubbing' | 'publishing'>,
  progress: { percent: number; phase_message: string },
): Promise<boolean> {
  return advanceOpenAttempt(db, step, sourcesOf('language', status), { status, ...progress });
}

/**
 * → completed: the open attempt (claimed by the caller under its locks) delivered; its files
 * and lines were published in the same transaction. The project's outcome is settled by the
 * caller next (settleProjectOutcome).
 */
export async function completeLanguage(trx: Trx, step: { projectId: string; locale: string }, events: EventSettings): Promise<void> {
  const language = await lockLanguage(trx, step.projectId, step.locale);
  assertMove('language', `${step.projectId}/${step.locale}`, language.status, 'completed');
  await writeLanguageState(trx, step.projectId, step.locale, {
    status: 'completed',
    percent: 100,
    phase_message: null,
    failure_code: null,
    failure_message: null,
    failure_detail: null,
    completed_at: new Date(),
  });
  await appendProjectEvents(trx, step.projectId, [projectEvent.languageCompleted(language)], events);
}

/**
 * A completed language published a new revision (a re-dub from the verified transcript, a
 * regeneration), its files and lines switched by the caller in this transaction: news as a
 * completion of that revision.
 */
export async function publishLanguageRevision(trx: Trx, step: { projectId: string; locale: string }, events: EventSettings): Promise<void> {
  const language = await lockLanguage(trx, step.projectId, step.locale);
  await appendProjectEvents(trx, step.projectId, [projectEvent.languageCompleted(language)], events);
}

/**
 * → failed: fails a language and refunds what its attempt was charged, once. `attempt:
 * 'current'` is for callers that only know the language ended (a terminated child, the
 * reconciler). A completed language, or a newer attempt than the caller's, is left alone.
 */
export async function failLanguage(
  trx: Trx,
  input: { projectId: string; locale: string; attempt: number | 'current'; code: LanguageFailureCode; detail: string },
  events: EventSettings,
): Promise<{ failed: boolean; refundedSeconds: number }> {
  const project = await lockExistingProject(trx, input.projectId);
  // A deleted project ended before it was deleted: there is nothing left to fail or refund.
  if (project.deleted_at !== null) return { failed: false, refundedSeconds: 0 };
  const language = await lockLanguage(trx, input.projectId, input.locale);
  const attempt = input.attempt === 'current' ? language.attempt : input.attempt;
  if (language.status === 'completed' || language.attempt !== attempt) return { failed: false, refundedSeconds: 0 };
  const failing = language.status !== 'failed';
  if (failing) {
    assertMove('language', `${project.id}/${input.locale}`, language.status, 'failed');
    await writeLanguageState(trx, project.id, input.locale, {
      status: 'failed',
      phase_message: null,
      failure_code: input.code,
      failure_message: publicFailureMessage(input.code, input.locale),
      failure_detail: input.detail,
    });
  }
  const refundedSeconds = await refundAttempt(trx, project, language, attempt);
  // After the refund, so the event's project shows the money as it now stands.
  if (failing) await appendProjectEvents(trx, project.id, [projectEvent.languageFailed({ locale: input.locale, attempt })], events);
  return { failed: true, refundedSeconds };
}

/** What the failed attempt was charged goes back, once (its refund reference). */
async function refundAttempt(trx: Trx, project: Project, language: ProjectLanguage, attempt: number): Promise<number> {
  const amount = language.attempt_charged_seconds;
  if (amount <= 0) return 0;
  const refunded = await refundCredits(trx, {
    workspaceId: project.workspace_id,
    reference: refundReference(project.id, language.locale, attempt),
    amount: amount * project.credits_per_second,
    projectId: project.id,
    description: `language ${language.locale} failed (attempt ${attempt})`,
  });
  if (!refunded) return 0;
  await writeLanguageState(trx, project.id, language.locale, { refunded_seconds: language.refunded_seconds + amount });
  await writeProjectState(trx, project.id, {
    charged_seconds: project.charged_seconds - amount,
    refunded_seconds: project.refunded_seconds + amount,
  });
  return amount;
}
