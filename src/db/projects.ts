import type { Cue, TranscriptSource } from './source-segments';
import type { BackgroundMode } from '../shared/background-mode';
import type { DubQuality } from '../engines/alignment/dub-quality';
import {
  DummyDriver, expressionBuilder, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql,
  type ColumnType, type Generated, type InferResult, type Insertable, type RawBuilder, type Selectable, type Transaction,
} from 'kysely';
import { Pool } from 'pg';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from './create-db';
import type { Database } from './database';
import type { Deliverable } from './deliverables';
import { containsPattern } from './like-pattern';
import type { Upload, UploadPart } from './uploads';

export type ProjectStatus = 'awaiting_upload' | 'validating' | 'processing' | 'completed' | 'partially_completed' | 'failed';
export type ProjectPhase = 'uploading' | 'fetching' | 'validating' | 'transcribing' | 'dubbing' | 'completed' | 'failed';
export type UsageState = 'pending_validation' | 'charged' | 'limit_exceeded' | 'insufficient_credits' | 'refunded' | 'released';
export type TranscriptReviewStatus = 'not_requested' | 'requested' | 'in_review' | 'verified' | 'expired';
export type LanguageStatus = 'queued' | 'translating' | 'dubbing' | 'publishing' | 'completed' | 'failed';

export interface ProjectTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  name: string;
  external_id: string | null;
  source_type: 'upload' | 'youtube';
  source_url: string | null;
  youtube_video_id: string | null;
  source_file_name: string | null;
  source_size_bytes: number | null;
  source_duration_seconds: number | null;
  source_has_video: boolean | null;
  /** How much of a YouTube source has been downloaded, while phase is `fetching`. */
  fetch_percent: number | null;
  source_locale: string;
  target_locales: string[];
  title: string | null;
  description: string | null;
  /** What the dub is mixed over (migration 0030, docs/background.md); fixed at create. */
  background: ColumnType<BackgroundMode, BackgroundMode | undefined, BackgroundMode>;
  status: ProjectStatus;
  phase: ProjectPhase;
  failure_code: string | null;
  failure_message: string | null;
  /** Internal reason for operators (logs, console); never shown to clients. */
  failure_detail: string | null;
  max_billable_seconds: number;
  credits_per_second: number;
  billable_seconds: number | null;
  charged_seconds: Generated<number>;
  refunded_seconds: Generated<number>;
  usage_state: UsageState;
  hold_reference: string;
  transcript_review_status: Generated<TranscriptReviewStatus>;
  transcript_review_requested_at: Date | null;
  transcript_review_verified_at: Date | null;
  /** Who wrote the source transcript the dub is made from; null until there is one. */
  transcript_source: TranscriptSource | null;
  /**
   * Translations supplied at create, by locale, until the charge step hands each to its language
   * row (insertQueuedLanguages) and clears this; written as JSON text.
   */
  supplied_translations: ColumnType<Record<string, Cue[]> | null, string | null | undefined, string | null>;
  /**
   * The voice of each target locale chosen at create (or its default then), until the charge step
   * gives each language row its own (insertQueuedLanguages; migration 0031); written as JSON text.
   */
  voices: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** The create's `video.burned_captions`, given to its target languages' rows by the charge step (migration 0029). */
  video_burned_captions: Generated<boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  validated_at: Date | null;
  completed_at: Date | null;
  /** Bumped by triggers whenever anything the project's API representation shows changes. */
  view_version: Generated<number>;
  /** When the customer asked to cancel (docs/lifecycle.md#cancel); null if never. */
  cancelled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The tombstone of a deleted project (docs/lifecycle.md#delete): every customer read filters it. */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When a deleted project's blobs and content rows were removed; null on a tombstone whose removal a DELETE retried finishes (migration 0033). */
  content_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

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
  /** How well the published dub follows its source (migration 0014); written as JSON text. */
  dub_quality: ColumnType<DubQuality | null, string | null | undefined, string | null>;
  attempt: Generated<number>;
  /** What the current attempt was charged: refunded exactly once if that attempt fails. */
  attempt_charged_seconds: Generated<number>;
  /** Seconds an operator delivered free with a goodwill retry. */
  goodwill_seconds: Generated<number>;
  /** Internal reason for operators; clients see failure_code and a safe failure_message. */
  failure_detail: string | null;
  /** What the translate step wrote before languages had lines (`language_segments`); no longer written. */
  translated_segments: ColumnType<TranslatedSegment[] | null, string | null | undefined, string | null>;
  /** Published files' generation: 1 when first dubbed, + 1 per re-dub from a verified transcript. */
  revision: Generated<number>;
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

export type Project = Selectable<ProjectTable>;
export type ProjectLanguage = Selectable<ProjectLanguageTable>;

export const holdReferenceFor = (projectId: string) => `${projectId}:hold`;

/**
 * Scoped to the workspace: another tenant's project is indistinguishable from a missing one, and
 * so is a deleted one (docs/lifecycle.md#delete).
 */
export async function findProject(db: Db, workspaceId: string, projectId: string): Promise<Project | undefined> {
  return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', projectId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A new project, as written (its defaults filled in by the table). */
export async function insertProject(db: Db, project: Insertable<ProjectTable>): Promise<Project> {
  return db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
}

export async function findProjectById(db: Db, projectId: string): Promise<Project | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

/** Everything but the translated segments, which can be large and no response shows. */
export type ProjectLanguageSummary = Omit<ProjectLanguage, 'translated_segments' | 'supplied_translation' | 'failure_detail' | 'attempt_charged_seconds' | 'transcript_kind' | 'dub_quality'>;

const LANGUAGE_SUMMARY = [
  'project_id', 'locale', 'status', 'phase_message', 'percent', 'failure_code', 'failure_message', 'title', 'description',
  'charged_seconds', 'refunded_seconds', 'drift_seconds', 'attempt', 'goodwill_seconds', 'revision', 'voice', 'created_at', 'updated_at', 'completed_at',
  'video_burned_captions',
] as const satisfies readonly (keyof ProjectLanguageSummary)[];

export async function listProjectLanguages(db: Db, projectIds: string[]): Promise<ProjectLanguageSummary[]> {
  if (projectIds.length === 0) return [];
  return db
    .selectFrom('project_languages')
    .select(LANGUAGE_SUMMARY)
    .where('project_id', 'in', projectIds)
    .orderBy('project_id')
    .orderBy('created_at')
    .orderBy('locale')
    .execute();
}

/** What a part URL and the part check need of an upload (not the parts list it completed with). */
export type ViewUpload = Pick<Upload, 'id' | 'project_id' | 'store_upload_id' | 'size_bytes' | 'part_size_bytes' | 'part_count' | 'expires_at'>;

/** Everything the project's representation is drawn from. */
export interface ProjectView {
  project: Project;
  /** In the order the representation lists them: as added, then by locale. */
  languages: ProjectLanguageSummary[];
  deliverables: Pick<Deliverable, 'locale' | 'type' | 'format'>[];
  /** The project's upload (an upload-source project), open or not. */
  upload: ViewUpload | undefined;
  /** While the upload is open, the parts recorded in `upload_parts`, by part number (none on a store that alone knows them). */
  parts: Pick<UploadPart, 'part_number' | 'etag' | 'size_bytes'>[];
}

/**
 * What findProjectView nests in the project row, each an index read by project id (the primary
 * keys of project_languages, deliverables and upload_parts, uploads' unique project_id)
 * aggregated to JSON. Built once: they take no parameters.
 */
const nested = expressionBuilder<Database & { p: ProjectTable }, 'p'>();
const VIEW_PARTS = [
  jsonArrayFrom(nested.selectFrom('project_languages as l').select(LANGUAGE_SUMMARY.map((c) => `l.${c}` as const)).whereRef('l.project_id', '=', 'p.id').orderBy('l.created_at').orderBy('l.locale')).as('languages'),
  jsonArrayFrom(nested.selectFrom('deliverables as d').select(['d.locale', 'd.type', 'd.format']).whereRef('d.project_id', '=', 'p.id').orderBy('d.locale').orderBy('d.type').orderBy('d.format')).as('deliverables'),
  jsonObjectFrom(nested.selectFrom('uploads as u').select(['u.id', 'u.project_id', 'u.store_upload_id', 'u.size_bytes', 'u.part_size_bytes', 'u.part_count', 'u.expires_at']).whereRef('u.project_id', '=', 'p.id')).as('upload'),
  jsonArrayFrom(
    nested.selectFrom('uploads as pu').innerJoin('upload_parts as up', 'up.upload_id', 'pu.id').select(['up.part_number', 'up.etag', 'up.size_bytes'])
      .whereRef('pu.project_id', '=', 'p.id').where('p.status', '=', sql.lit('awaiting_upload')).orderBy('up.part_number'),
  ).as('parts'),
] as const;

/**
 * The project's columns by name, not `p.*`: a prepared statement's result columns are fixed, so
 * a column a migration adds while the API runs must not change them (PostgreSQL would refuse the
 * statement: "cached plan must not change result type"). ProjectView's type checks that none is missing.
 */
const PROJECT_COLUMNS = [
  'id', 'seq', 'workspace_id', 'name', 'external_id', 'source_type', 'source_url', 'youtube_video_id', 'source_file_name', 'source_size_bytes',
  'source_duration_seconds', 'source_has_video', 'fetch_percent', 'source_locale', 'target_locales', 'title', 'description', 'background', 'status', 'phase',
  'failure_code', 'failure_message', 'failure_detail', 'max_billable_seconds', 'credits_per_second', 'billable_seconds', 'charged_seconds',
  'refunded_seconds', 'usage_state', 'hold_reference', 'transcript_review_status', 'transcript_review_requested_at', 'transcript_review_verified_at',
  'transcript_source', 'supplied_translations', 'voices', 'created_at', 'updated_at', 'validated_at', 'completed_at', 'view_version',
  'cancelled_at', 'deleted_at', 'content_removed_at',
  'video_burned_captions',
] as const satisfies readonly (keyof ProjectTable)[];

const viewQuery = (db: Kysely<Database>, workspaceId: string, projectId: string) =>
  db.selectFrom('projects as p').select(PROJECT_COLUMNS.map((c) => `p.${c}` as const)).select(VIEW_PARTS).where('p.workspace_id', '=', workspaceId).where('p.id', '=', projectId);

/**
 * The statement's text, compiled once without a connection: its only parameters are the two
 * ids. Run by name, each connection plans it once instead of on every call (docs/design.md#conditional-get).
 * Exported for bench:api's breakdown, which runs it without the API around it.
 */
export const PROJECT_VIEW_STATEMENT = {
  name: 'find-project-view',
  text: viewQuery(new Kysely<Database>({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() } }), '', '').compile().sql,
};

/** What a conditional GET compares (project-etag.ts): the view's version and what decides its ETag. */
export type ProjectVersion = Pick<Project, 'view_version' | 'status' | 'source_type'>;

/**
 * The project's version alone, scoped to the workspace: every conditional GET of a polling client
 * runs it, so it runs by name, planned once per connection (docs/design.md#conditional-get).
 */
export async function findProjectVersion(pool: Pool, workspaceId: string, projectId: string): Promise<ProjectVersion | undefined> {
  const { rows } = await pool.query<ProjectVersion>({
    name: 'find-project-version',
    text: 'select view_version, status, source_type from projects where workspace_id = $1 and id = $2 and deleted_at is null',
    values: [workspaceId, projectId],
  });
  return rows[0];
}

/**
 * The project (scoped to the workspace, as findProject) with everything it shows, in one
 * statement: on a pool as a named prepared statement, in a transaction (`trx`) as a plain one.
 */
export async function findProjectView(db: Pool | Db, workspaceId: string, projectId: string): Promise<ProjectView | undefined> {
  const row = db instanceof Pool
    ? (await db.query<InferResult<ReturnType<typeof viewQuery>>[number]>({ ...PROJECT_VIEW_STATEMENT, values: [workspaceId, projectId] })).rows[0]
    : await viewQuery(db, workspaceId, projectId).executeTakeFirst();
  if (!row) return undefined;
  const { languages, deliverables, upload, parts, ...project } = row;
  // JSON carries timestamps as ISO text; pg's own parser would have made them Dates (to the same millisecond).
  return {
    project,
    languages: languages.map((l) => ({ ...l, created_at: new Date(l.created_at), updated_at: new Date(l.updated_at), completed_at: dateOrNull(l.completed_at) })),
    deliverables,
    upload: upload ? { ...upload, expires_at: new Date(upload.expires_at) } : undefined,
    parts,
  };
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

export interface ProjectListFilter {
  workspaceId: string;
  limit: number;
  /** Only projects older (smaller seq) than this one. */
  beforeSeq?: number;
  externalId?: string;
  youtubeVideoId?: string;
  query?: string;
}

/** Newest first; fetches one extra row so the caller knows whether another page exists. */
export async function listProjects(db: Db, filter: ProjectListFilter): Promise<Project[]> {
  let q = db.selectFrom('projects').selectAll().where('workspace_id', '=', filter.workspaceId).where('deleted_at', 'is', null);
  if (filter.beforeSeq !== undefined) q = q.where('seq', '<', filter.beforeSeq);
  if (filter.externalId !== undefined) q = q.where('external_id', '=', filter.externalId);
  if (filter.youtubeVideoId !== undefined) q = q.where('youtube_video_id', '=', filter.youtubeVideoId);
  if (filter.query !== undefined) {
    const pattern = containsPattern(filter.query);
    q = q.where((eb) =>
      eb.or([
        eb('name', 'ilike', pattern),
        eb('external_id', '=', filter.query!),
        eb('youtube_video_id', '=', filter.query!),
      ]),
    );
  }
  return q.orderBy('seq', 'desc').limit(filter.limit + 1).execute();
}

export async function updateProject(db: Db, projectId: string, changes: Partial<Omit<Project, 'id' | 'seq' | 'created_at' | 'view_version' | 'supplied_translations' | 'voices'>>): Promise<void> {
  await db.updateTable('projects').set({ ...changes, updated_at: sql<Date>`now()` as any }).where('id', '=', projectId).execute();
}

export async function updateLanguage(
  db: Db,
  projectId: string,
  locale: string,
  changes: Partial<Omit<ProjectLanguage, 'project_id' | 'locale' | 'created_at' | 'translated_segments' | 'supplied_translation' | 'dub_quality' | 'voice'>> & { translated_segments?: string | null; dub_quality?: string | null },
): Promise<void> {
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
export async function updateOpenAttempt(
  db: Db,
  step: { projectId: string; locale: string; attempt: number },
  changes: Parameters<typeof updateLanguage>[3],
): Promise<boolean> {
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

/**
 * The project row, locked for the rest of the caller's transaction: whatever changes a project's
 * status or money reads it here first, so two such steps never interleave.
 */
export async function lockProject(trx: Transaction<Database>, projectId: string): Promise<Project | undefined> {
  return trx.selectFrom('projects').selectAll().where('id', '=', projectId).forUpdate().executeTakeFirst();
}

/** lockProject for a project the caller knows exists: a missing one throws. */
export async function lockExistingProject(trx: Transaction<Database>, projectId: string): Promise<Project> {
  return trx.selectFrom('projects').selectAll().where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow(() => new Error(`project ${projectId} not found`));
}

/** A project-level failure's reason, written over what the languages' failures left there. */
export async function setProjectFailure(trx: Db, projectId: string, failure: { code: string; message: string; detail: string | null }): Promise<void> {
  await trx.updateTable('projects').set({ failure_code: failure.code, failure_message: failure.message, failure_detail: failure.detail }).where('id', '=', projectId).execute();
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
    .values(input.locales.map((locale) => ({ ...queuedLanguageRow(input.projectId, locale, input.chargedSeconds, null), supplied_translation: supplied(locale), voice: voice(locale), video_burned_captions: burnedCaptions })))
    .onConflict((oc) => oc.columns(['project_id', 'locale']).doNothing())
    .execute();
  await trx.updateTable('projects').set({ supplied_translations: null }).where('id', '=', input.projectId).where('supplied_translations', 'is not', null).execute();
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

/** How many projects, and how many target languages, are in each status (fleet-wide). */
export async function countProjectsByStatus(db: Db): Promise<{ status: ProjectStatus; count: number }[]> {
  const rows = await db.selectFrom('projects').select(['status', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('status').execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.n) }));
}

export async function countLanguagesByStatus(db: Db): Promise<{ status: LanguageStatus; count: number }[]> {
  const rows = await db.selectFrom('project_languages').select(['status', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('status').execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.n) }));
}

/** In flight (validating or processing) and unchanged since `staleBefore`, the longest unchanged first: what the reconciler checks for a workflow. */
export async function listStaleProjectsInFlight(db: Db, input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number }): Promise<Pick<Project, 'id' | 'workspace_id' | 'status'>[]> {
  let q = db.selectFrom('projects').select(['id', 'workspace_id', 'status']).where('status', 'in', ['validating', 'processing']).where('updated_at', '<', input.staleBefore);
  if (input.workspaceId) q = q.where('workspace_id', '=', input.workspaceId);
  return q.orderBy('updated_at').limit(input.limit).execute();
}

/** The project's languages that have not ended (neither completed nor failed). */
export async function listOpenLanguageLocales(db: Db, projectId: string): Promise<Pick<ProjectLanguage, 'locale'>[]> {
  return db.selectFrom('project_languages').select('locale').where('project_id', '=', projectId).where('status', 'not in', ['completed', 'failed']).execute();
}

/**
 * Languages that have not ended and are unchanged since `staleBefore`, of projects past
 * validation, the longest unchanged first: what the reconciler checks for a workflow.
 */
export async function listStaleOpenLanguages(
  db: Db,
  input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number },
): Promise<Pick<ProjectLanguage, 'project_id' | 'locale' | 'attempt' | 'status'>[]> {
  let q = db
    .selectFrom('project_languages')
    .innerJoin('projects', 'projects.id', 'project_languages.project_id')
    .select(['project_languages.project_id', 'project_languages.locale', 'project_languages.attempt', 'project_languages.status'])
    .where('project_languages.status', 'not in', ['completed', 'failed'])
    .where('project_languages.updated_at', '<', input.staleBefore)
    .where('projects.status', 'not in', ['validating']);
  if (input.workspaceId) q = q.where('projects.workspace_id', '=', input.workspaceId);
  return q.orderBy('project_languages.updated_at').limit(input.limit).execute();
}

/** Ended projects (completed, partially completed, failed) whose hold still reserves credits. */
export async function listEndedProjectsWithHeldCredits(
  db: Db,
  input: { workspaceId?: string; limit: number },
): Promise<(Pick<Project, 'id' | 'workspace_id' | 'hold_reference' | 'status'> & { remaining: number })[]> {
  let q = db
    .selectFrom('projects')
    .innerJoin('credit_holds', 'credit_holds.reference', 'projects.hold_reference')
    .select(['projects.id', 'projects.workspace_id', 'projects.hold_reference', 'projects.status', 'credit_holds.remaining'])
    .where('projects.status', 'in', ['completed', 'partially_completed', 'failed'])
    .where('credit_holds.remaining', '>', 0);
  if (input.workspaceId) q = q.where('projects.workspace_id', '=', input.workspaceId);
  return q.limit(input.limit).execute();
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

/** Languages added to a project by a paid request, queued, each charged `chargedSeconds` for its first attempt, each with its voice. */
export async function insertAddedLanguages(trx: Transaction<Database>, input: { projectId: string; locales: string[]; chargedSeconds: number; voices: Readonly<Record<string, string>>; videoBurnedCaptions?: boolean }): Promise<void> {
  await trx
    .insertInto('project_languages')
    .values(input.locales.map((locale) => ({ ...queuedLanguageRow(input.projectId, locale, input.chargedSeconds, 'Added; waiting to start.'), voice: input.voices[locale] ?? null, video_burned_captions: input.videoBurnedCaptions ?? false })))
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
