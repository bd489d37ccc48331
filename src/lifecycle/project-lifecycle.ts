import type { Insertable, Transaction } from 'kysely';
import type { Database } from '../db/database';
import { captureFromHold, holdCredits, releaseHold } from '../db/credits';
import { listLanguageStatuses } from '../db/project-languages';
import { holdReferenceFor, lockExistingProject, type Project, type ProjectPhase, type ProjectStatus, type ProjectTable, type UsageState } from '../db/projects';
import { deleteProjectContent } from '../db/project-content';
import { insertProject, insertQueuedLanguages, startValidatingUpload, writeProjectState, writeTombstone } from '../db/status-writes';
import { counted } from '../shared/counted';
import { isFinalLanguage } from './language-lifecycle';
import { appendProjectEvents, projectEvent, type EventSettings } from './project-events';
import { assertMove, START } from './transition-table';

// A project's transitions (docs/design.md#lifecycle): validated, charged, stopped over its
// ceiling, failed before its charge, ended from its languages, reopened by new paid work, deleted.
// Each takes the caller's transaction and the project row it locked, checks the move against the
// transition table, moves the money with the status (the ledger references make a repeat a no-op)
// and appends the webhook events the move is news for (./project-events.ts).

type Trx = Transaction<Database>;

/**
 * [*] → awaiting_upload (an upload source) or validating (a YouTube source): the new project's
 * row, its usage pending validation under its own hold reference. Its ceiling is held by
 * holdProjectCeiling, last in the same transaction.
 */
export async function createProject(trx: Trx, row: Omit<Insertable<ProjectTable>, 'status' | 'phase' | 'usage_state' | 'hold_reference'>): Promise<Project> {
  const isUpload = row.source_type === 'upload';
  return insertProject(trx, {
    ...row,
    status: isUpload ? 'awaiting_upload' : 'validating',
    phase: isUpload ? 'uploading' : 'validating',
    usage_state: 'pending_validation',
    hold_reference: holdReferenceFor(row.id),
  });
}

/**
 * The most a new project may cost, held (its hold reference). Placed last in the create's
 * transaction: it locks the workspace's balance row until the commit, so the workspace's other
 * creates wait one statement, not the whole create. Throws InsufficientCreditsError, nothing held.
 */
export async function holdProjectCeiling(trx: Trx, project: Pick<Project, 'id' | 'workspace_id' | 'hold_reference'>, amount: number): Promise<void> {
  await holdCredits(trx, { workspaceId: project.workspace_id, reference: project.hold_reference, amount, projectId: project.id, description: 'project ceiling hold' });
}

/**
 * awaiting_upload → validating once the upload is complete. Undefined when the project has moved
 * on (its upload expired or was cancelled meanwhile): the guarded UPDATE writes nothing then.
 */
export async function beginValidation(trx: Trx, projectId: string): Promise<Project | undefined> {
  return startValidatingUpload(trx, projectId);
}

/**
 * validating → processing: `billable × languages` is captured from the hold, the rest of the hold
 * released, and every target language queued with its first attempt's charge, together.
 */
export async function chargeProject(trx: Trx, project: Project, billableSeconds: number, events: EventSettings): Promise<void> {
  assertMove('project', project.id, project.status, 'processing');
  const base = { workspaceId: project.workspace_id, holdReference: project.hold_reference, projectId: project.id };
  const languages = project.target_locales.length;
  await captureFromHold(trx, {
    ...base,
    reference: `${project.id}:capture`,
    amount: billableSeconds * languages * project.credits_per_second,
    description: `${billableSeconds} s × ${counted(languages, 'language')}`,
  });
  await releaseHold(trx, { ...base, reference: `${project.id}:release` });
  await writeProjectState(trx, project.id, {
    billable_seconds: billableSeconds,
    charged_seconds: billableSeconds * languages,
    usage_state: 'charged',
    status: 'processing',
    phase: 'transcribing',
    validated_at: new Date(),
  });
  await insertQueuedLanguages(trx, { projectId: project.id, locales: project.target_locales, chargedSeconds: billableSeconds });
  await appendProjectEvents(trx, project.id, [projectEvent.validated()], events);
}

/**
 * validating → failed over the spend ceiling: the source bills more than max_billable_seconds,
 * so the whole hold is released and nothing is charged.
 */
export async function stopOverCeiling(trx: Trx, project: Project, billableSeconds: number, events: EventSettings): Promise<void> {
  assertMove('project', project.id, project.status, 'failed');
  const now = new Date();
  await releaseHold(trx, { workspaceId: project.workspace_id, holdReference: project.hold_reference, projectId: project.id, reference: `${project.id}:release` });
  await writeProjectState(trx, project.id, {
    billable_seconds: billableSeconds,
    status: 'failed',
    phase: 'failed',
    usage_state: 'limit_exceeded',
    failure_code: 'max_billable_seconds_exceeded',
    failure_message: `The source is ${billableSeconds} billable seconds, above max_billable_seconds (${project.max_billable_seconds}); nothing was charged.`,
    validated_at: now,
    completed_at: now,
  });
  await appendProjectEvents(trx, project.id, projectEvent.endingOf, events);
}

/**
 * awaiting_upload | validating → failed before any charge: the whole hold goes back to the
 * workspace (`<p>:release`, so a repeat is a no-op). `cancelledAt` marks a customer's cancel.
 */
export async function failUnchargedProject(
  trx: Trx,
  project: Pick<Project, 'id' | 'workspace_id' | 'hold_reference' | 'status'>,
  failure: { code: string; message: string; usageState: UsageState; detail?: string; cancelledAt?: Date },
  events: EventSettings,
): Promise<void> {
  assertMove('project', project.id, project.status, 'failed');
  await releaseHold(trx, { workspaceId: project.workspace_id, holdReference: project.hold_reference, reference: `${project.id}:release`, projectId: project.id, description: failure.code });
  const now = new Date();
  await writeProjectState(trx, project.id, {
    status: 'failed',
    phase: 'failed',
    failure_code: failure.code,
    failure_message: failure.message,
    failure_detail: failure.detail ?? null,
    usage_state: failure.usageState,
    completed_at: now,
    ...(failure.cancelledAt ? { cancelled_at: failure.cancelledAt } : {}),
  });
  await appendProjectEvents(trx, project.id, projectEvent.endingOf, events);
}

/**
 * processing → completed | partially_completed | failed, from its languages, once every language
 * has ended, with usage `refunded` when nothing stays charged. Run whenever a language ends, so
 * a retry or reset that completes a language also ends the project. A project that was never
 * charged (failed before validation) is left as it is.
 */
export async function settleProjectOutcome(trx: Trx, projectId: string, events: EventSettings): Promise<ProjectStatus> {
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
  assertMove('project', project.id, project.status, status);
  const completedAt = project.completed_at ?? new Date();
  await writeProjectState(trx, projectId, {
    status,
    phase: status === 'failed' ? 'failed' : 'completed',
    usage_state: usageState,
    completed_at: completedAt,
    ...(status === 'failed'
      ? keepFailure
        ? {}
        : { failure_code: 'engine_failed', failure_message: 'Every language failed; all charges were refunded.' }
      : { failure_code: null, failure_message: null, failure_detail: null }),
  });
  await appendProjectEvents(trx, projectId, projectEvent.endingOf, events);
  return status;
}

/**
 * Languages added (their charges already in the ledger, in this transaction): the project counts
 * them and, if it had ended, moves back to processing at `resumePhase`. New paid work after a
 * cancel clears it (docs/lifecycle.md#cancel).
 */
export async function addLanguagesToProject(trx: Trx, project: Project, input: { locales: string[]; chargedSeconds: number; resumePhase: ProjectPhase | null }): Promise<void> {
  if (input.resumePhase) assertMove('project', project.id, project.status, 'processing');
  await writeProjectState(trx, project.id, {
    target_locales: [...project.target_locales, ...input.locales],
    charged_seconds: project.charged_seconds + input.chargedSeconds,
    usage_state: 'charged',
    ...(input.resumePhase ? { status: 'processing' as const, phase: input.resumePhase, completed_at: null, failure_code: null, failure_message: null, failure_detail: null, cancelled_at: null } : {}),
  });
}

/** Money moved on a charged project outside a language's attempt (a regeneration charged or refunded). */
export async function moveProjectCharge(trx: Trx, project: Project, change: { chargedSeconds: number; refundedSeconds?: number }): Promise<void> {
  const charged = project.charged_seconds + change.chargedSeconds;
  await writeProjectState(trx, project.id, {
    charged_seconds: charged,
    ...(change.refundedSeconds ? { refunded_seconds: project.refunded_seconds + change.refundedSeconds } : {}),
    usage_state: charged > 0 ? 'charged' : 'refunded',
  });
}

/**
 * An ended project → [*], deleted: the tombstone (`deleted_at`), under the lock the caller took
 * and judged the project by. From here every customer read answers 404, nothing new starts on it
 * (the API's lockLiveProject, lockProjectToWrite here), and its content is removed by the caller.
 * A repeat (a concurrent DELETE tombstoned it first) writes nothing.
 */
export async function deleteProject(trx: Trx, project: Pick<Project, 'id' | 'status' | 'deleted_at'>): Promise<void> {
  if (project.deleted_at !== null) return;
  assertMove('project', project.id, project.status, START);
  await writeTombstone(trx, project.id);
}

/**
 * The tombstone's content removed (its blobs are gone, by the caller): the project's rows of
 * content go, and `project.deleted` is its last event. A repeat (a DELETE retried) writes nothing.
 */
export async function finishDeletion(trx: Trx, projectId: string, events: EventSettings): Promise<void> {
  const project = await lockExistingProject(trx, projectId);
  if (project.deleted_at === null || project.content_removed_at !== null) return;
  await deleteProjectContent(trx, projectId);
  await appendProjectEvents(trx, projectId, [projectEvent.deleted()], events);
}
