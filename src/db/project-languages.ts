// The project_languages table: a project's target languages, their row type and the queries that
// read and lock them. The status column is written only by src/db/status-writes.ts, for the
// lifecycle module (docs/design.md#lifecycle): updateLanguage refuses it at compile time.
import type { Cue } from './source-segments';
import type { DubQuality } from '../shared/dub-quality';
import type { SyncTotals } from '../shared/sync-report';
import type { LoudnessReport } from '../audio/loudness-report';
import { sql, type ColumnType, type Generated, type Selectable, type Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';

export type LanguageStatus = 'queued' | 'translating' | 'dubbing' | 'publishing' | 'completed' | 'failed';

export interface ProjectLanguageTable {
  project_id: string;
  locale: string;
  status: LanguageStatus;
  phase_message: string | null;
  percent: Generated<number>;
  failure_code: string | null;
  failure_message: string | null;
  title: string | null;
  description: string | null;
  charged_seconds: Generated<number>;
  refunded_seconds: Generated<number>;
  drift_seconds: number | null;
  /** Timed-text rules the published captions break (migration 0037, docs/captions.md#qc); null before a render counted them. */
  caption_breaches: ColumnType<number | null, number | null | undefined, number | null>;
  /** How well the published dub follows its source (migration 0014); written as JSON text. */
  dub_quality: ColumnType<DubQuality | null, string | null | undefined, string | null>;
  /** The published revision's sync report in total (migration 0039, docs/editing.md#sync-report); written as JSON text, null before. */
  sync_report: ColumnType<SyncTotals | null, string | null | undefined, string | null>;
  /** The published mix's measured loudness (migration 0040, docs/audio.md#report); written as JSON text, null before. */
  loudness_report: ColumnType<LoudnessReport | null, string | null | undefined, string | null>;
  attempt: Generated<number>;
  /** What the current attempt was charged: refunded exactly once if that attempt fails. */
  attempt_charged_seconds: Generated<number>;
  /** Seconds an operator delivered free with a goodwill retry. */
  goodwill_seconds: Generated<number>;
  /** Internal reason for operators; clients see failure_code and a safe failure_message. */
  failure_detail: string | null;
  /** What the translate step wrote before languages had lines (`language_segments`); no longer written. */
  translated_segments: ColumnType<TranslatedSegment[] | null, string | null | undefined, string | null>;
  /** Published files' generation: 1 when first dubbed, then the revision each later render claimed (a re-dub, a regeneration). */
  revision: Generated<number>;
  /** The highest revision a render of the language has claimed (src/db/language-renders.ts; migration 0033). */
  claimed_revision: Generated<number>;
  /** The revision the re-dub from a verified transcript is rendering; null when none runs. */
  redub_revision: ColumnType<number | null, number | null | undefined, number | null>;
  /** Which transcript the current translation came from; null until translated. */
  transcript_kind: ColumnType<TranscriptKind | null, TranscriptKind | null | undefined, TranscriptKind | null>;
  /** A translation supplied at create, taken as given instead of machine translation. */
  supplied_translation: ColumnType<Cue[] | null, string | null | undefined, string | null>;
  /** The voice every render of it speaks with (docs/voices.md); null for a language from before voices: the locale's worker voice. */
  voice: ColumnType<string | null, string | null | undefined, never>;
  /** Whether the language's video has its captions burned into the picture (docs/video.md). */
  video_burned_captions: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  completed_at: Date | null;
}

export type TranscriptKind = 'machine' | 'verified';

export interface TranslatedSegment {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

export type ProjectLanguage = Selectable<ProjectLanguageTable>;

/** Everything but the translated segments, which can be large and no response shows. */
export type ProjectLanguageSummary = Omit<
  ProjectLanguage,
  'translated_segments' | 'supplied_translation' | 'failure_detail' | 'attempt_charged_seconds' | 'transcript_kind' | 'dub_quality' | 'claimed_revision' | 'redub_revision'
>;

export const LANGUAGE_SUMMARY = [
  'project_id',
  'locale',
  'status',
  'phase_message',
  'percent',
  'failure_code',
  'failure_message',
  'title',
  'description',
  'charged_seconds',
  'refunded_seconds',
  'drift_seconds',
  'caption_breaches',
  'sync_report',
  'loudness_report',
  'attempt',
  'goodwill_seconds',
  'revision',
  'voice',
  'created_at',
  'updated_at',
  'completed_at',
  'video_burned_captions',
] as const satisfies readonly (keyof ProjectLanguageSummary)[];

export async function listProjectLanguages(db: Db, projectIds: string[]): Promise<ProjectLanguageSummary[]> {
  if (projectIds.length === 0) return [];
  return db.selectFrom('project_languages').select(LANGUAGE_SUMMARY).where('project_id', 'in', projectIds).orderBy('project_id').orderBy('created_at').orderBy('locale').execute();
}

/** Any column but the status, which only the lifecycle writes (a type error here). */
export type LanguageChanges = Partial<
  Omit<
    ProjectLanguage,
    | 'project_id'
    | 'locale'
    | 'created_at'
    | 'translated_segments'
    | 'supplied_translation'
    | 'dub_quality'
    | 'sync_report'
    | 'loudness_report'
    | 'voice'
    | 'status'
    | 'claimed_revision'
    | 'redub_revision'
  >
> & {
  translated_segments?: string | null;
  dub_quality?: string | null;
  sync_report?: string | null;
  loudness_report?: string | null;
  status?: never;
  claimed_revision?: never;
  redub_revision?: never;
};

export async function updateLanguage(db: Db, projectId: string, locale: string, changes: LanguageChanges): Promise<void> {
  await db
    .updateTable('project_languages')
    .set({ ...changes, updated_at: sql<Date>`now()` as any })
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .execute();
}

/**
 * Progress of one language attempt: written only while that attempt is still the open one, so a
 * stale run (an old attempt replayed by a Web UI reset) never flips a completed or failed
 * language back to work in progress. Returns whether the row was written.
 */
export async function updateOpenAttempt(db: Db, step: { projectId: string; locale: string; attempt: number }, changes: LanguageChanges): Promise<boolean> {
  const result = await db
    .updateTable('project_languages')
    .set({ ...changes, updated_at: sql<Date>`now()` as any })
    .where('project_id', '=', step.projectId)
    .where('locale', '=', step.locale)
    .where('attempt', '=', step.attempt)
    .where('status', 'not in', ['completed', 'failed'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One language with everything it holds (translated segments included), or undefined. */
export async function findLanguage(db: Db, projectId: string, locale: string): Promise<ProjectLanguage | undefined> {
  return db.selectFrom('project_languages').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirst();
}

/** Just the language's status: a download asks whether its files are ready. */
export async function findLanguageStatus(db: Db, projectId: string, locale: string): Promise<Pick<ProjectLanguage, 'status'> | undefined> {
  return db.selectFrom('project_languages').select(['status']).where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirst();
}

/** The language row, locked for the rest of the caller's transaction; a missing one throws. */
export async function lockLanguage(trx: Transaction<Database>, projectId: string, locale: string): Promise<ProjectLanguage> {
  return trx
    .selectFrom('project_languages')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .forUpdate()
    .executeTakeFirstOrThrow(() => new Error(`project ${projectId} has no language ${locale}`));
}

export type LanguageRevision = Pick<ProjectLanguage, 'status' | 'revision' | 'transcript_kind'>;

/** Which files a completed language publishes (its revision) and which transcript made them; a missing language throws. */
export async function readLanguageRevision(db: Db, projectId: string, locale: string): Promise<LanguageRevision> {
  return db.selectFrom('project_languages').select(['status', 'revision', 'transcript_kind']).where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirstOrThrow();
}

/** The language's status and revision, locked: a re-dub switches its files under this lock. */
export async function lockLanguageRevision(trx: Transaction<Database>, projectId: string, locale: string): Promise<Pick<ProjectLanguage, 'status' | 'revision'>> {
  return trx.selectFrom('project_languages').select(['status', 'revision']).where('project_id', '=', projectId).where('locale', '=', locale).forUpdate().executeTakeFirstOrThrow();
}

/**
 * Each language of the project with its status and revision, locked for the rest of the caller's
 * transaction: a transcript edit holds them, so no language starts or regenerates meanwhile.
 */
export async function lockLanguageStatuses(trx: Transaction<Database>, projectId: string): Promise<Pick<ProjectLanguage, 'locale' | 'status' | 'revision'>[]> {
  return trx.selectFrom('project_languages').select(['locale', 'status', 'revision']).where('project_id', '=', projectId).orderBy('locale').forUpdate().execute();
}

/** The language's status and revision, or undefined when the project has no such language. */
export async function findLanguageRevision(db: Db, projectId: string, locale: string): Promise<Pick<ProjectLanguage, 'status' | 'revision'> | undefined> {
  return db.selectFrom('project_languages').select(['status', 'revision']).where('project_id', '=', projectId).where('locale', '=', locale).executeTakeFirst();
}

/** Each language of the project and its status, in no particular order. */
export async function listLanguageStatuses(db: Db, projectId: string): Promise<Pick<ProjectLanguage, 'locale' | 'status'>[]> {
  return db.selectFrom('project_languages').select(['locale', 'status']).where('project_id', '=', projectId).execute();
}

/** Each language's status and the transcript it was made from, by locale: what a re-dub plans from. */
export async function listLanguageTranscriptKinds(db: Db, projectId: string): Promise<Pick<ProjectLanguage, 'locale' | 'status' | 'transcript_kind'>[]> {
  return db.selectFrom('project_languages').select(['locale', 'status', 'transcript_kind']).where('project_id', '=', projectId).orderBy('locale').execute();
}

/** What the console needs to retry a language: its state and what its project bills. */
export interface LanguageRetryFacts {
  status: LanguageStatus;
  attempt: number;
  /** Why it failed: decides whether a retry is free (src/shared/retry-policy.ts). */
  failure_code: string | null;
  workspace_id: string;
  billable_seconds: number | null;
  credits_per_second: number;
}

export async function findLanguageRetryFacts(db: Db, projectId: string, locale: string): Promise<LanguageRetryFacts | undefined> {
  return db
    .selectFrom('project_languages')
    .innerJoin('projects', 'projects.id', 'project_languages.project_id')
    .select(['project_languages.status', 'project_languages.attempt', 'project_languages.failure_code', 'projects.workspace_id', 'projects.billable_seconds', 'projects.credits_per_second'])
    .where('project_languages.project_id', '=', projectId)
    .where('project_languages.locale', '=', locale)
    .executeTakeFirst();
}
