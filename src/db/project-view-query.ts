// The project's representation in one statement (docs/design.md#conditional-get): the project
// row with its languages, deliverables and open upload nested as JSON, run by name.
import { DummyDriver, expressionBuilder, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type InferResult } from 'kysely';
import { Pool } from 'pg';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from './create-db';
import type { Database } from './database';
import type { Deliverable } from './deliverables';
import { LANGUAGE_SUMMARY, type ProjectLanguageSummary } from './project-languages';
import type { Project, ProjectTable } from './projects';
import type { Upload, UploadPart } from './uploads';

/** What a part URL and the part check need of an upload (not the parts list it completed with). */
export type ViewUpload = Pick<Upload, 'id' | 'project_id' | 'role' | 'store_upload_id' | 'size_bytes' | 'part_size_bytes' | 'part_count' | 'expires_at'>;

/** Everything the project's representation is drawn from. */
export interface ProjectView {
  project: Project;
  /** In the order the representation lists them: as added, then by locale. */
  languages: ProjectLanguageSummary[];
  deliverables: Pick<Deliverable, 'locale' | 'type' | 'format'>[];
  /** The project's upload (an upload-source project), open or not. */
  upload: ViewUpload | undefined;
  /** Its music-and-effects track's upload while it is not completed (docs/background.md#your-own-music-and-effects-track). */
  trackUpload: ViewUpload | undefined;
  /** Its speakers in position order, each with their voice by locale (docs/speakers.md). */
  speakers: ViewSpeaker[];
  /** While the upload is open, the parts recorded in `upload_parts`, by part number (none on a store that alone knows them). */
  parts: Pick<UploadPart, 'part_number' | 'etag' | 'size_bytes'>[];
  /** The same of the track's upload. */
  trackParts: Pick<UploadPart, 'part_number' | 'etag' | 'size_bytes'>[];
}

export interface ViewSpeaker {
  id: string;
  label: string;
  voices: Record<string, { voice: string; variant: boolean; chosen_by: 'customer' | 'machine' }>;
}

/**
 * What findProjectView nests in the project row, each an index read by project id (the primary
 * keys of project_languages, deliverables and upload_parts, uploads' unique project_id)
 * aggregated to JSON. Built once: they take no parameters.
 */
const nested = expressionBuilder<Database & { p: ProjectTable }, 'p'>();
const VIEW_PARTS = [
  jsonArrayFrom(
    nested
      .selectFrom('project_languages as l')
      .select(LANGUAGE_SUMMARY.map((c) => `l.${c}` as const))
      .whereRef('l.project_id', '=', 'p.id')
      .orderBy('l.created_at')
      .orderBy('l.locale'),
  ).as('languages'),
  jsonArrayFrom(nested.selectFrom('deliverables as d').select(['d.locale', 'd.type', 'd.format']).whereRef('d.project_id', '=', 'p.id').orderBy('d.locale').orderBy('d.type').orderBy('d.format')).as(
    'deliverables',
  ),
  ...(['source', 'background_track'] as const).flatMap((role) => [
    jsonObjectFrom(
      nested
        .selectFrom('uploads as u')
        .select(['u.id', 'u.project_id', 'u.role', 'u.store_upload_id', 'u.size_bytes', 'u.part_size_bytes', 'u.part_count', 'u.expires_at'])
        .whereRef('u.project_id', '=', 'p.id')
        .where('u.role', '=', sql.lit(role))
        // A track once completed has nothing left to send: only an open one is shown.
        .$if(role === 'background_track', (q) => q.where('u.completed_at', 'is', null)),
    ).as(role === 'source' ? 'upload' : 'track_upload'),
    jsonArrayFrom(
      nested
        .selectFrom('uploads as pu')
        .innerJoin('upload_parts as up', 'up.upload_id', 'pu.id')
        .select(['up.part_number', 'up.etag', 'up.size_bytes'])
        .whereRef('pu.project_id', '=', 'p.id')
        .where('pu.role', '=', sql.lit(role))
        .where('p.status', '=', sql.lit('awaiting_upload'))
        .orderBy('up.part_number'),
    ).as(role === 'source' ? 'parts' : 'track_parts'),
  ]),
  jsonArrayFrom(
    nested
      .selectFrom('project_speakers as s')
      .select([
        's.id',
        's.label',
        sql<
          ViewSpeaker['voices']
        >`(select coalesce(json_object_agg(v.locale, json_build_object('voice', v.voice, 'variant', v.variant, 'chosen_by', v.chosen_by)), '{}') from speaker_voices v where v.speaker_id = s.id)`.as(
          'voices',
        ),
      ])
      .whereRef('s.project_id', '=', 'p.id')
      .orderBy('s.position'),
  ).as('speakers'),
] as const;

/**
 * The project's columns by name, not `p.*`: a prepared statement's result columns are fixed, so
 * a column a migration adds while the API runs must not change them (PostgreSQL would refuse the
 * statement: "cached plan must not change result type"). ProjectView's type checks that none is missing.
 */
const PROJECT_COLUMNS = [
  'id',
  'seq',
  'workspace_id',
  'name',
  'external_id',
  'source_type',
  'source_url',
  'youtube_video_id',
  'source_file_name',
  'source_size_bytes',
  'source_duration_seconds',
  'source_has_video',
  'fetch_percent',
  'source_locale',
  'target_locales',
  'title',
  'description',
  'background',
  'background_track_file_name',
  'background_track_size_bytes',
  'caption_rules',
  'loudness',
  'status',
  'phase',
  'failure_code',
  'failure_message',
  'failure_detail',
  'max_billable_seconds',
  'credits_per_second',
  'billable_seconds',
  'charged_seconds',
  'refunded_seconds',
  'usage_state',
  'hold_reference',
  'transcript_review_status',
  'transcript_review_requested_at',
  'transcript_review_verified_at',
  'transcript_source',
  'supplied_translations',
  'voices',
  'created_at',
  'updated_at',
  'validated_at',
  'completed_at',
  'view_version',
  'cancelled_at',
  'deleted_at',
  'content_removed_at',
  'video_burned_captions',
  'num_speakers',
  'glossary_id',
  'glossary_version',
  'range_start_seconds',
  'range_end_seconds',
] as const satisfies readonly (keyof ProjectTable)[];

const viewQuery = (db: Kysely<Database>, workspaceId: string, projectId: string) =>
  db
    .selectFrom('projects as p')
    .select(PROJECT_COLUMNS.map((c) => `p.${c}` as const))
    .select(VIEW_PARTS)
    .where('p.workspace_id', '=', workspaceId)
    .where('p.id', '=', projectId);

/**
 * The statement's text, compiled once without a connection: its only parameters are the two
 * ids. Run by name, each connection plans it once instead of on every call (docs/design.md#conditional-get).
 * Exported for bench:api's breakdown, which runs it without the API around it.
 */
export const PROJECT_VIEW_STATEMENT = {
  name: 'find-project-view',
  text: viewQuery(
    new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    }),
    '',
    '',
  ).compile().sql,
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
  const row =
    db instanceof Pool
      ? (await db.query<InferResult<ReturnType<typeof viewQuery>>[number]>({ ...PROJECT_VIEW_STATEMENT, values: [workspaceId, projectId] })).rows[0]
      : await viewQuery(db, workspaceId, projectId).executeTakeFirst();
  if (!row) return undefined;
  const { languages, deliverables, upload, parts, track_upload: trackUpload, track_parts: trackParts, speakers, ...project } = row;
  // JSON carries timestamps as ISO text; pg's own parser would have made them Dates (to the same millisecond).
  return {
    project,
    languages: languages.map((l) => ({ ...l, created_at: new Date(l.created_at), updated_at: new Date(l.updated_at), completed_at: dateOrNull(l.completed_at) })),
    deliverables,
    upload: upload ? { ...upload, expires_at: new Date(upload.expires_at) } : undefined,
    parts,
    trackUpload: trackUpload ? { ...trackUpload, expires_at: new Date(trackUpload.expires_at) } : undefined,
    trackParts,
    speakers,
  };
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));
