// The projects table: its row type and the queries that read and lock it. Status columns are
// written only by src/db/status-writes.ts, for the lifecycle module (docs/design.md#lifecycle):
// updateProject refuses them at compile time.
import type { Cue, TranscriptSource } from './source-segments';
import type { BackgroundMode } from '../shared/background-mode';
import type { CaptionPreset } from '../captions/timed-text-rules';
import type { LoudnessPreset } from '../audio/loudness-presets';
import { sql, type ColumnType, type Generated, type Selectable, type Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';
import { containsPattern } from './like-pattern';

export type ProjectStatus = 'awaiting_upload' | 'validating' | 'processing' | 'completed' | 'partially_completed' | 'failed';
export type ProjectPhase = 'uploading' | 'fetching' | 'validating' | 'transcribing' | 'dubbing' | 'completed' | 'failed';
export type UsageState = 'pending_validation' | 'charged' | 'limit_exceeded' | 'insufficient_credits' | 'refunded' | 'released';
export type TranscriptReviewStatus = 'not_requested' | 'requested' | 'in_review' | 'verified' | 'expired';

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
  /** The customer's music-and-effects track, an upload beside the source (migration 0041, docs/background.md#your-own-music-and-effects-track); fixed at create. */
  background_track_file_name: ColumnType<string | null, string | null | undefined, string | null>;
  background_track_size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  /** The timed-text preset its captions follow (migration 0037, docs/captions.md#presets); fixed at create. */
  caption_rules: ColumnType<CaptionPreset, CaptionPreset | undefined, CaptionPreset>;
  /** The loudness preset its mixes are levelled and normalized to (migration 0040, docs/audio.md#presets); fixed at create. */
  loudness: ColumnType<LoudnessPreset, LoudnessPreset | undefined, LoudnessPreset>;
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
  /** The create's `num_speakers` (docs/speakers.md): 0 = find out, 1 = one speaker, N = exactly N. */
  num_speakers: Generated<number>;
  /** The create's `video.burned_captions`, given to its target languages' rows by the charge step (migration 0029). */
  video_burned_captions: Generated<boolean>;
  /** The glossary version the project pins (docs/glossaries.md#pinning): both set, or both null (migration 0037). */
  glossary_id: ColumnType<string | null, string | null | undefined, string | null>;
  glossary_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** A preview's stretch of the source, in the whole source's seconds (docs/previews.md): both set, or both null for the whole source (migration 0042); fixed at create. */
  range_start_seconds: ColumnType<number | null, number | null | undefined, number | null>;
  range_end_seconds: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** When a deleted project's blobs and content rows were removed; null on a tombstone whose removal a DELETE retried finishes (migration 0034). */
  content_removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type Project = Selectable<ProjectTable>;

/** The columns only the lifecycle writes (src/db/status-writes.ts): status and money state move together. */
export type ProjectLifecycleColumn = 'status' | 'usage_state' | 'transcript_review_status' | 'deleted_at';

export const holdReferenceFor = (projectId: string) => `${projectId}:hold`;

/**
 * Scoped to the workspace: another tenant's project is indistinguishable from a missing one, and
 * so is a deleted one (docs/lifecycle.md#delete).
 */
export async function findProject(db: Db, workspaceId: string, projectId: string): Promise<Project | undefined> {
  return db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', projectId).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findProjectById(db: Db, projectId: string): Promise<Project | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

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
    q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('external_id', '=', filter.query!), eb('youtube_video_id', '=', filter.query!)]));
  }
  return q
    .orderBy('seq', 'desc')
    .limit(filter.limit + 1)
    .execute();
}

/**
 * Any column but the lifecycle's: a status or usage state passed here is a type error
 * (docs/design.md#lifecycle); those move through src/lifecycle.
 */
export async function updateProject(
  db: Db,
  projectId: string,
  changes: Partial<Omit<Project, 'id' | 'seq' | 'created_at' | 'view_version' | 'supplied_translations' | 'voices' | ProjectLifecycleColumn>> & { [K in ProjectLifecycleColumn]?: never },
): Promise<void> {
  await db
    .updateTable('projects')
    .set({ ...changes, updated_at: sql<Date>`now()` as any })
    .where('id', '=', projectId)
    .execute();
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
  return trx
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .forUpdate()
    .executeTakeFirstOrThrow(() => new Error(`project ${projectId} not found`));
}

/** A project-level failure's reason, written over what the languages' failures left there. */
export async function setProjectFailure(trx: Db, projectId: string, failure: { code: string; message: string; detail: string | null }): Promise<void> {
  await trx.updateTable('projects').set({ failure_code: failure.code, failure_message: failure.message, failure_detail: failure.detail }).where('id', '=', projectId).execute();
}
