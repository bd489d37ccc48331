import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Pool } from 'pg';
import type { Db } from './create-db';
import type { VideoAvailability } from '../shared/video-availability';
import { containsPattern } from './like-pattern';
import type { Project } from './projects';

// Connected YouTube channels and the mirror of their uploads (docs/design.md#youtube).

export interface YoutubeChannelTable {
  id: string;
  title: string;
  handle: string | null;
  uploads_playlist_id: string;
  last_synced_at: Date | null;
  last_sync_error: string | null;
  /** Bumped by a trigger with every write to the channel's mirrored videos (migration 0013). */
  mirror_version: ColumnType<number, never, never>;
  created_at: ColumnType<Date, never, never>;
}

export interface WorkspaceChannelTable {
  workspace_id: string;
  channel_id: string;
  is_primary: ColumnType<boolean, boolean | undefined, boolean>;
  connected_at: ColumnType<Date, never, never>;
}

export interface YoutubeVideoTable {
  id: string;
  channel_id: string;
  title: string;
  description: string;
  published_at: Date;
  duration_seconds: number | null;
  availability: VideoAvailability;
  unavailable_reason: string | null;
  updated_at: ColumnType<Date, never, Date>;
}

export type YoutubeChannel = Selectable<YoutubeChannelTable>;
export type YoutubeVideo = Selectable<YoutubeVideoTable>;
export type ConnectedChannel = YoutubeChannel & { is_primary: boolean; workspace_id: string };

export async function listConnectedChannels(db: Db, workspaceId?: string): Promise<ConnectedChannel[]> {
  let q = db
    .selectFrom('workspace_channels')
    .innerJoin('youtube_channels', 'youtube_channels.id', 'workspace_channels.channel_id')
    .selectAll('youtube_channels')
    .select(['workspace_channels.is_primary', 'workspace_channels.workspace_id']);
  if (workspaceId) q = q.where('workspace_channels.workspace_id', '=', workspaceId);
  return q.orderBy('workspace_channels.workspace_id').orderBy('workspace_channels.connected_at').execute();
}

/**
 * Connects a channel to a workspace: its first channel, or one connected with `primary: true`,
 * becomes its primary (the partial unique index makes two primaries impossible).
 */
export async function connectChannel(
  trx: Db,
  input: { workspaceId: string; channel: Pick<YoutubeChannel, 'id' | 'title' | 'handle' | 'uploads_playlist_id'>; primary: boolean },
): Promise<{ isPrimary: boolean; alreadyConnected: boolean }> {
  await trx
    .insertInto('youtube_channels')
    .values(input.channel)
    .onConflict((oc) => oc.column('id').doUpdateSet({ title: input.channel.title, handle: input.channel.handle, uploads_playlist_id: input.channel.uploads_playlist_id }))
    .execute();
  // Serialize connects of one workspace, so "first channel is primary" holds under concurrency.
  await sql`select pg_advisory_xact_lock(hashtext(${`workspace-channels:${input.workspaceId}`}))`.execute(trx);
  const existing = await trx.selectFrom('workspace_channels').select(['channel_id', 'is_primary']).where('workspace_id', '=', input.workspaceId).execute();
  const already = existing.find((c) => c.channel_id === input.channel.id);
  // Primary when asked, when the workspace has none yet, or when it already was.
  const isPrimary = input.primary || !existing.some((c) => c.is_primary) || already?.is_primary === true;
  if (input.primary) {
    await trx
      .updateTable('workspace_channels')
      .set({ is_primary: false })
      .where('workspace_id', '=', input.workspaceId)
      .where('channel_id', '!=', input.channel.id)
      .where('is_primary', '=', true)
      .execute();
  }
  await trx
    .insertInto('workspace_channels')
    .values({ workspace_id: input.workspaceId, channel_id: input.channel.id, is_primary: isPrimary })
    .onConflict((oc) => oc.columns(['workspace_id', 'channel_id']).doUpdateSet({ is_primary: isPrimary }))
    .execute();
  return { isPrimary, alreadyConnected: already !== undefined };
}

/**
 * Disconnects a channel from a workspace. If it was the primary, the oldest remaining connection
 * becomes primary. The mirror stays: other workspaces and existing projects may use it.
 */
export async function disconnectChannel(trx: Db, workspaceId: string, channelId: string): Promise<boolean> {
  await sql`select pg_advisory_xact_lock(hashtext(${`workspace-channels:${workspaceId}`}))`.execute(trx);
  const removed = await trx.deleteFrom('workspace_channels').where('workspace_id', '=', workspaceId).where('channel_id', '=', channelId).returning('is_primary').executeTakeFirst();
  if (!removed) return false;
  if (removed.is_primary) {
    const next = await trx.selectFrom('workspace_channels').select('channel_id').where('workspace_id', '=', workspaceId).orderBy('connected_at').limit(1).executeTakeFirst();
    if (next) await trx.updateTable('workspace_channels').set({ is_primary: true }).where('workspace_id', '=', workspaceId).where('channel_id', '=', next.channel_id).execute();
  }
  return true;
}

/** The workspaces a channel is connected to; none means nothing needs its mirror kept fresh. */
export async function listChannelWorkspaceIds(db: Db, channelId: string): Promise<string[]> {
  const rows = await db.selectFrom('workspace_channels').select('workspace_id').where('channel_id', '=', channelId).execute();
  return rows.map((row) => row.workspace_id);
}

/** Adds the videos to the mirror, or refreshes what it has of them. */
export async function upsertVideos(db: Db, videos: Omit<YoutubeVideo, 'updated_at'>[]): Promise<void> {
  if (videos.length === 0) return;
  const refreshed = ['channel_id', 'title', 'description', 'published_at', 'duration_seconds', 'availability', 'unavailable_reason'] as const;
  await db
    .insertInto('youtube_videos')
    .values(videos)
    .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ ...Object.fromEntries(refreshed.map((c) => [c, eb.ref(`excluded.${c}`)])), updated_at: sql<Date>`now()` })))
    .execute();
}

// Every video search runs these reads, so they run by name (pg's `{ name, text, values }`): each
// connection parses and plans them once (docs/design.md#named-statements). Result columns are
// named, so a migration adding a column leaves the prepared statements valid.
const CHANNEL =
  'select "youtube_channels"."id", "youtube_channels"."title" from "workspace_channels" inner join "youtube_channels" on "youtube_channels"."id" = "workspace_channels"."channel_id" where "workspace_channels"."workspace_id" = $1';
const VIDEOS = 'select "id", "title", "duration_seconds", "published_at", "availability" from "youtube_videos" where "channel_id" = $1';
const NEWEST_FIRST = 'order by "published_at" desc, "id" desc limit';
const MATCHES =
  'select distinct on ("youtube_video_id") "id", "youtube_video_id", "target_locales", "status", "usage_state" from "projects" where "workspace_id" = $1 and "youtube_video_id" = any($2) order by "youtube_video_id", "seq" desc';

/** The channel a workspace asks for, or its primary when it names none; undefined if not connected. */
export async function findConnectedChannel(pool: Pool, workspaceId: string, channelId?: string): Promise<Pick<YoutubeChannel, 'id' | 'title'> | undefined> {
  const { rows } = await pool.query<Pick<YoutubeChannel, 'id' | 'title'>>(
    channelId === undefined
      ? { name: 'find-primary-channel', text: `${CHANNEL} and "workspace_channels"."is_primary"`, values: [workspaceId] }
      : { name: 'find-named-channel', text: `${CHANNEL} and "workspace_channels"."channel_id" = $2`, values: [workspaceId, channelId] },
  );
  return rows[0];
}

/** The columns a listed video shows (docs/design.md#youtube); the description stays in the table. */
export type ListedVideo = Pick<YoutubeVideo, 'id' | 'title' | 'duration_seconds' | 'published_at' | 'availability'>;

/**
 * A page of a channel's mirrored videos, newest first: the one with an exact id, or those whose
 * title contains `query` (literally, any case; the trigram index), or the newest (the channel's
 * newest-first index).
 */
export async function listVideos(pool: Pool, search: { channelId: string; videoId?: string; query?: string; limit: number }): Promise<ListedVideo[]> {
  const { channelId, videoId, query, limit } = search;
  const { rows } = await pool.query<ListedVideo>(
    videoId !== undefined
      ? { name: 'find-video', text: `${VIDEOS} and "id" = $2 ${NEWEST_FIRST} $3`, values: [channelId, videoId, limit] }
      : query !== undefined
        ? { name: 'search-video-titles', text: `${VIDEOS} and "title" ilike $2 ${NEWEST_FIRST} $3`, values: [channelId, containsPattern(query), limit] }
        : { name: 'list-newest-videos', text: `${VIDEOS} ${NEWEST_FIRST} $2`, values: [channelId, limit] },
  );
  return rows;
}

export type MatchingProjectRow = Pick<Project, 'id' | 'target_locales' | 'status' | 'usage_state'> & { youtube_video_id: string };

/**
 * The workspace's newest project for each of these videos that has one (never another
 * workspace's), by video id: one probe of projects_workspace_video_seq_idx per id.
 */
export async function findMatchingProjects(pool: Pool, workspaceId: string, videoIds: readonly string[]): Promise<Map<string, MatchingProjectRow>> {
  if (videoIds.length === 0) return new Map();
  const { rows } = await pool.query<MatchingProjectRow>({ name: 'find-matching-projects', text: MATCHES, values: [workspaceId, videoIds] });
  return new Map(rows.map((row) => [row.youtube_video_id, row]));
}
