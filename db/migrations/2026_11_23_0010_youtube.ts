import { Kysely, sql } from 'kysely';

// Frozen in time. YouTube sources:
// - `youtube_channels`: a channel as the Data API describes it, shared by every workspace that
//   connects it (one mirror per channel, not per workspace).
// - `workspace_channels`: which workspace connected which channel; at most one primary per
//   workspace, enforced by a partial unique index rather than by convention.
// - `youtube_videos`: the mirror of each channel's uploads. Rows are never deleted: a video that
//   turns private or is removed is marked so, and projects keep pointing at it.
// Title search uses a trigram index so `ILIKE '%…%'` stays fast at 100,000 videos.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('youtube_channels')
    .addColumn('id', 'text', (c) => c.primaryKey().check(sql`id ~ '^UC[A-Za-z0-9_-]{22}$'`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('handle', 'text')
    .addColumn('uploads_playlist_id', 'text', (c) => c.notNull())
    .addColumn('last_synced_at', 'timestamptz')
    .addColumn('last_sync_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('workspace_channels')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('channel_id', 'text', (c) => c.notNull().references('youtube_channels.id'))
    .addColumn('is_primary', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('connected_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('workspace_channels_pk', ['workspace_id', 'channel_id'])
    .execute();
  await sql`create unique index workspace_channels_one_primary on workspace_channels (workspace_id) where is_primary`.execute(db);
  await db.schema.createIndex('workspace_channels_channel_idx').on('workspace_channels').column('channel_id').execute();

  await db.schema
    .createTable('youtube_videos')
    .addColumn('id', 'text', (c) => c.primaryKey().check(sql`id ~ '^[A-Za-z0-9_-]{11}$'`))
    .addColumn('channel_id', 'text', (c) => c.notNull().references('youtube_channels.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('published_at', 'timestamptz', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer')
    .addColumn('availability', 'text', (c) => c.notNull().check(sql`availability in ('available', 'private', 'unavailable', 'live')`))
    .addColumn('unavailable_reason', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index youtube_videos_channel_published_idx on youtube_videos (channel_id, published_at desc, id desc)`.execute(db);
  await sql`create index youtube_videos_title_trgm_idx on youtube_videos using gin (title gin_trgm_ops)`.execute(db);
  // Progress while a YouTube source downloads (phase `fetching`).
  await db.schema
    .alterTable('projects')
    .addColumn('fetch_percent', 'integer', (c) => c.check(sql`fetch_percent between 0 and 100`))
    .execute();
  // matching_project: the newest project of a workspace for a video, answered from the index
  // alone (it covers every column the video list shows).
  await sql`create index projects_workspace_video_seq_idx on projects (workspace_id, youtube_video_id, seq desc) include (id, target_locales, status, usage_state) where youtube_video_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists projects_workspace_video_seq_idx`.execute(db);
  await db.schema.alterTable('projects').dropColumn('fetch_percent').execute();
  await db.schema.dropTable('youtube_videos').execute();
  await db.schema.dropTable('workspace_channels').execute();
  await db.schema.dropTable('youtube_channels').execute();
}
