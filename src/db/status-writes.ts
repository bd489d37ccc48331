// The only queries that write a status column (docs/design.md#lifecycle): a project's status
// and usage state, a language's status, a regeneration's and a transcript review's. Imported by
// src/lifecycle alone (a lint rule in eslint/layers.js), whose transition functions check each
// move against the one transition table before calling these, in the caller's transaction.
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';
import type { LanguageStatus, ProjectLanguage } from './project-languages';
import type { LanguageRegeneration, LanguageRegenerationTable } from './language-regenerations';
import type { Project, ProjectTable } from './projects';
import type { ReviewStatus, TranscriptReview } from './transcript-reviews';

/** A project's status or usage state, with whatever else the same move writes. */
export type ProjectStateChange = Partial<Omit<Project, 'id' | 'seq' | 'created_at' | 'view_version' | 'supplied_translations' | 'voices'>>;

export async function writeProjectState(trx: Db, projectId: string, change: ProjectStateChange): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ ...change, updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .execute();
}

/** A language's status, with whatever else the same move writes. */
export type LanguageStateChange = Partial<
  Omit<ProjectLanguage, 'project_id' | 'locale' | 'created_at' | 'translated_segments' | 'supplied_translation' | 'dub_quality' | 'sync_report' | 'loudness_report' | 'voice'>
> & {
  dub_quality?: string | null;
  sync_report?: string | null;
  loudness_report?: string | null;
};

export async function writeLanguageState(trx: Db, projectId: string, locale: string, change: LanguageStateChange): Promise<void> {
  await trx
    .updateTable('project_languages')
    .set({ ...change, updated_at: sql<Date>`now()` as any })
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .execute();
}

/**
 * Progress of the open attempt to `status`, written only while that attempt is open and its
 * status is one of `from` (the table's sources of `status`): a replayed earlier step never moves
 * a language backwards, and a stale run never reopens an ended one. Whether it was written.
 */
export async function advanceOpenAttempt(
  db: Db,
  step: { projectId: string; locale: string; attempt: number },
  from: readonly LanguageStatus[],
  change: LanguageStateChange & { status: LanguageStatus },
): Promise<boolean> {
  const result = await db
    .updateTable('project_languages')
    .set({ ...change, updated_at: sql<Date>`now()` as any })
    .where('project_id', '=', step.projectId)
    .where('locale', '=', step.locale)
    .where('attempt', '=', step.attempt)
    .where('status', 'in', from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * An upload project's move to validating once its upload is complete, only from
 * awaiting_upload: undefined when the project has moved on (its upload expired meanwhile).
 */
export async function startValidatingUpload(trx: Transaction<Database>, projectId: string): Promise<Project | undefined> {
  return trx
    .updateTable('projects')
    .set({ status: 'validating', phase: 'validating', updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .where('status', '=', 'awaiting_upload')
    .returningAll()
    .executeTakeFirst();
}

/**
 * The project's target languages, queued, each charged `chargedSeconds` for its first attempt,
 * with the translation supplied for it at create, if any. A language that already has a row
 * keeps it, so a retried charge step adds nothing.
 */
export async function insertQueuedLanguages(trx: Db, input: { projectId: string; locales: string[]; chargedSeconds: number }): Promise<void> {
  // Each row takes the translation supplied for its locale at create, which the project held
  // until now (docs/editing.md#bring-your-own-script); the project's copy is then cleared.
  const supplied = (locale: string) => sql<string | null>`(select p.supplied_translations -> ${locale} from projects p where p.id = ${input.projectId})`;
  // And the voice chosen for it at create (docs/voices.md), which the project keeps, and the
  // create's video choice (docs/video.md), which holds for every language it asked for.
  const voice = (locale: string) => sql<string | null>`(select p.voices ->> ${locale} from projects p where p.id = ${input.projectId})`;
  const burnedCaptions = sql<boolean>`(select p.video_burned_captions from projects p where p.id = ${input.projectId})`;
  await trx
    .insertInto('project_languages')
    .values(
      input.locales.map((locale) => ({
        ...queuedLanguageRow(input.projectId, locale, input.chargedSeconds, null),
        supplied_translation: supplied(locale),
        voice: voice(locale),
        video_burned_captions: burnedCaptions,
      })),
    )
    .onConflict((oc) => oc.columns(['project_id', 'locale']).doNothing())
    .execute();
  await trx.updateTable('projects').set({ supplied_translations: null }).where('id', '=', input.projectId).where('supplied_translations', 'is not', null).execute();
}

/** Languages added to a project by a paid request, queued, each charged `chargedSeconds` for its first attempt, each with its voice. */
export async function insertAddedLanguages(
  trx: Transaction<Database>,
  input: { projectId: string; locales: string[]; chargedSeconds: number; voices: Readonly<Record<string, string>>; videoBurnedCaptions?: boolean },
): Promise<void> {
  await trx
    .insertInto('project_languages')
    .values(
      input.locales.map((locale) => ({
        ...queuedLanguageRow(input.projectId, locale, input.chargedSeconds, 'Added; waiting to start.'),
        voice: input.voices[locale] ?? null,
        video_burned_captions: input.videoBurnedCaptions ?? false,
      })),
    )
    .execute();
}

/** A language row waiting for its first attempt, which is charged `chargedSeconds`. */
function queuedLanguageRow(projectId: string, locale: string, chargedSeconds: number, phaseMessage: string | null) {
  return {
    project_id: projectId,
    locale,
    status: 'queued' as const,
    phase_message: phaseMessage,
    failure_code: null,
    failure_message: null,
    title: null,
    description: null,
    drift_seconds: null,
    completed_at: null,
    charged_seconds: chargedSeconds,
    attempt_charged_seconds: chargedSeconds,
  };
}

/** Records a paid regeneration, in the transaction that charged it. */
export async function insertLanguageRegeneration(trx: Db, row: Omit<Insertable<LanguageRegenerationTable>, 'status' | 'to_revision' | 'failure_code' | 'completed_at'>): Promise<LanguageRegeneration> {
  return trx
    .insertInto('language_regenerations')
    .values({ ...row, status: 'running', to_revision: null, failure_code: null, completed_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A regeneration's end: its status with what the same move records. */
export async function writeRegenerationState(
  trx: Db,
  regenerationId: string,
  change: Pick<LanguageRegeneration, 'status' | 'completed_at'> & Partial<Pick<LanguageRegeneration, 'to_revision' | 'refunded_credits' | 'failure_code'>>,
): Promise<void> {
  await trx.updateTable('language_regenerations').set(change).where('id', '=', regenerationId).execute();
}

/** Opens the review: its row and the project's public state, with the deadline counted from now. */
export async function insertReview(trx: Db, row: { projectId: string; workspaceId: string; billableSeconds: number; credits: number; deadlineSeconds: number }): Promise<TranscriptReview> {
  const review = await trx
    .insertInto('transcript_reviews')
    .values({
      project_id: row.projectId,
      workspace_id: row.workspaceId,
      status: 'requested',
      billable_seconds: row.billableSeconds,
      credits: row.credits,
      deadline_at: sql<Date>`now() + make_interval(secs => ${row.deadlineSeconds})` as any,
      reviewer: null,
      reviewer_key_id: null,
      claimed_at: null,
      verified_at: null,
      expired_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('projects')
    .set({ transcript_review_status: 'requested', transcript_review_requested_at: review.requested_at, updated_at: sql<Date>`now()` as any })
    .where('id', '=', row.projectId)
    .execute();
  return review;
}

/** Moves the review to `status`, mirroring it (and verified_at) onto the project row. */
export async function setReviewStatus(
  trx: Db,
  projectId: string,
  status: ReviewStatus,
  changes: Partial<Pick<TranscriptReview, 'reviewer' | 'reviewer_key_id' | 'claimed_at' | 'verified_at' | 'expired_at' | 'refunded_credits'>> = {},
): Promise<TranscriptReview> {
  const review = await trx
    .updateTable('transcript_reviews')
    .set({ ...changes, status })
    .where('project_id', '=', projectId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('projects')
    .set({ transcript_review_status: status, transcript_review_verified_at: review.verified_at, updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .execute();
  return review;
}

/** A new project, as written (its defaults filled in by the table). */
export async function insertProject(db: Db, project: Insertable<ProjectTable>): Promise<Project> {
  return db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
}

/**
 * The tombstone, in the caller's transaction (which holds the project lock and judged the
 * project deletable): from this commit every read answers 404 and every writer refuses the
 * project (the API's lockLiveProject, the activities' lockProjectToWrite), so nothing new starts
 * on it while its blobs are removed.
 */
export async function writeTombstone(trx: Transaction<Database>, projectId: string): Promise<void> {
  await trx
    .updateTable('projects')
    .set({ deleted_at: sql<Date>`now()` as any, updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Claims the language's next revision, in the caller's transaction (the update locks the row).
 * `redub`: the claim also marks the re-dub as in flight, which edits and regenerations wait for;
 * a later claim of a re-dub (a retried activity) takes the mark over.
 */
export async function claimRenderRevision(trx: Db, projectId: string, locale: string, options: { redub: boolean }): Promise<number> {
  // Every right-hand side reads the row as it was before the update.
  const next = sql<number>`greatest(claimed_revision, revision) + 1`;
  const row = await trx
    .updateTable('project_languages')
    .set({ claimed_revision: next, ...(options.redub ? { redub_revision: next } : {}) })
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .returning('claimed_revision')
    .executeTakeFirstOrThrow(() => new Error(`project ${projectId} has no language ${locale}`));
  return row.claimed_revision;
}

/**
 * The re-dub no longer runs: it published, or its workflow gave it up. `revision`: only that
 * claim's mark is cleared (a publish); absent: whichever claim holds it (the workflow gave up, so
 * an attempt still running can no longer publish).
 */
export async function releaseRedubRevision(trx: Db, projectId: string, locale: string, revision?: number): Promise<void> {
  let q = trx.updateTable('project_languages').set({ redub_revision: null }).where('project_id', '=', projectId).where('locale', '=', locale);
  q = revision === undefined ? q.where('redub_revision', 'is not', null) : q.where('redub_revision', '=', revision);
  await q.execute();
}
