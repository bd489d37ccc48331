import { sql, type ColumnType, type Selectable } from 'kysely';
import { batchedRead, type BatchedRead } from './batched-read';
import { prepared, runPrepared, type Db } from './create-db';
import type { VideoAvailability } from '../shared/video-availability';
import { containsPattern } from './like-pattern';

// Connected YouTube channels and the mirror of their uploads. The video list is served from here,
// so searching costs no Data API quota.

export type { VideoAvailability };

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

/**
 * One row per workspace that ever had a YouTube project: `version` takes a value never used before
 * in the same transaction as any write that can change the workspace's matching projects
 * (migration 0020's triggers). No row reads as version 0: no YouTube project was ever written.
 */
export interface WorkspaceYoutubeVersionTable {
  workspace_id: string;
  version: ColumnType<number, never, never>;
}

export type YoutubeChannel = Selectable<YoutubeChannelTable>;
export type YoutubeVideo = Selectable<YoutubeVideoTable>;
export type ConnectedChannel = YoutubeChannel & { is_primary: boolean; workspace_id: string };

export { VIDEO_ID_PATTERN } from '../shared/youtube-video-id';

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
 * Connects a channel to a workspace. The first channel of a workspace becomes its primary, and
 * `primary: true` moves the primary here; the partial unique index makes two primaries
 * impossible even for concurrent connects. The caller owns the transaction.
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
    await trx.updateTable('workspace_channels').set({ is_primary: false }).where('workspace_id', '=', input.workspaceId).where('channel_id', '!=', input.channel.id).where('is_primary', '=', true).execute();
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

export async function upsertVideos(db: Db, videos: Omit<YoutubeVideo, 'updated_at'>[]): Promise<void> {
  if (videos.length === 0) return;
  await db
    .insertInto('youtube_videos')
    .values(videos)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        channel_id: eb.ref('excluded.channel_id'),
        title: eb.ref('excluded.title'),
        description: eb.ref('excluded.description'),
        published_at: eb.ref('excluded.published_at'),
        duration_seconds: eb.ref('excluded.duration_seconds'),
        availability: eb.ref('excluded.availability'),
        unavailable_reason: eb.ref('excluded.unavailable_reason'),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

export interface MatchingProjectRow {
  id: string;
  youtube_video_id: string;
  target_locales: string[];
  status: string;
  usage_state: string;
}


/** The channel a workspace asks for, or its primary when it names none; undefined if not connected. */
export async function findConnectedChannel(db: Db, workspaceId: string, channelId?: string): Promise<Pick<YoutubeChannel, 'id' | 'title'> | undefined> {
  let q = db
    .selectFrom('workspace_channels')
    .innerJoin('youtube_channels', 'youtube_channels.id', 'workspace_channels.channel_id')
    .select(['youtube_channels.id', 'youtube_channels.title'])
    .where('workspace_channels.workspace_id', '=', workspaceId);
  q = channelId === undefined ? q.where('workspace_channels.is_primary', '=', true) : q.where('workspace_channels.channel_id', '=', channelId);
  return q.executeTakeFirst();
}

/** The columns a listed video shows (docs/design.md#youtube); the description stays in the table. */
export type ListedVideo = Pick<YoutubeVideo, 'id' | 'title' | 'duration_seconds' | 'published_at' | 'availability'>;

export interface VideoPage {
  videos: readonly ListedVideo[];
  context: PageContext;
}

export interface VideoPageRequest {
  workspaceId: string;
  channelId: string;
  /** Asked for the workspace's primary channel (no channel_id): the connection must still be the primary. */
  primary: boolean;
  limit: number;
}

/**
 * The requests a batched statement answers, one row each, from $1: a JSON array of objects (`i`,
 * the request's number from 1; the workspace; the channel; `any_connection`, true when any
 * connection will do rather than only the primary; and what the request looks for).
 * Why JSON rather than `unnest` of parallel arrays: PostgreSQL sizes an `unnest` of a known array
 * exactly, so a custom plan for one request always looked cheaper than the generic plan (sized
 * for 10) and the prepared statement was planned afresh on every call, about 0.25 ms of
 * PostgreSQL CPU for a lone request; `json_to_recordset` is sized the same in both, so after its
 * first few calls the statement runs its generic plan (docs/benchmarks.md, seventh session).
 */
const REQUESTS = (lookingFor: string) => `json_to_recordset($1::json) as r(i int, workspace_id uuid, channel_id text, any_connection boolean, ${lookingFor})`;

/**
 * $1 of a batched statement: the requests as REQUESTS reads them, each with what it looks for
 * (`lookingFor`, the rest of its JSON object's members). Written as text, since a search's page of
 * ids is serialized once (idsJson) rather than on every request.
 */
function requestsJson<R extends Omit<VideoPageRequest, 'limit'>>(requests: readonly R[], lookingFor: (request: R) => string): string {
  let json = '[';
  for (const [n, r] of requests.entries()) {
    json += `${n === 0 ? '' : ','}{"i":${n + 1},"workspace_id":${JSON.stringify(r.workspaceId)},"channel_id":${JSON.stringify(r.channelId)},"any_connection":${!r.primary},${lookingFor(r)}}`;
  }
  return `${json}]`;
}

/** A page's ids as JSON, kept for as long as the page's array lives: a remembered page's is written once. */
const idsJsonByArray = new WeakMap<readonly string[], string>();
function idsJson(ids: readonly string[]): string {
  let json = idsJsonByArray.get(ids);
  if (json === undefined) {
    json = JSON.stringify(ids);
    idsJsonByArray.set(ids, json);
  }
  return json;
}

/** For a request r: the workspace still has this channel connected (as its primary, when the primary was asked for). */
const CONNECTION_HOLDS = `exists (
  select 1 from workspace_channels w where w.workspace_id = r.workspace_id and w.channel_id = r.channel_id and (w.is_primary or r.any_connection)
)`;

/** The exact-id statement, written once as SQL: it runs on every exact-id search, where building it cost more than running it. */
const CHANNEL_VIDEOS_SQL = `
  select r.i, ${CONNECTION_HOLDS} as connected, (select mirror_version from youtube_channels where id = r.channel_id) as mirror_version,
    v.id, v.title, v.duration_seconds, v.published_at, v.availability, m.match
  from ${REQUESTS('video_id text')}
  left join youtube_videos v on v.id = r.video_id and v.channel_id = r.channel_id
  left join lateral (
    select json_build_object('id', p.id, 'target_locales', p.target_locales, 'status', p.status, 'usage_state', p.usage_state) as match
    from projects p where p.workspace_id = r.workspace_id and p.youtube_video_id = v.id
    order by p.seq desc limit 1
  ) m on true`;

/**
 * Written once as SQL: a repeated search runs this alone, so no statement building per request.
 * The matches are probed (an index probe per video) only when the workspace's YouTube projects
 * moved since the version the caller remembers its matches at (`known_version`, null for none):
 * a repeated search of an unchanged workspace costs key lookups alone. `video_ids` stays JSON
 * until a probe needs it, and then becomes an array for `= any`: one index probe per id (written
 * `in (select ...)`, PostgreSQL joined it to all the workspace's projects, 8.7 against 1.15 ms per
 * 25 requests on the bench's data).
 */
const PAGE_CONTEXTS_SQL = `
  select r.i, ${CONNECTION_HOLDS} as connected, (select mirror_version from youtube_channels where id = r.channel_id) as mirror_version,
    coalesce(pv.version, 0) as projects_version,
    case when r.known_version = coalesce(pv.version, 0) then null else (select coalesce(json_agg(m), '[]'::json) from (
      select distinct on (p.youtube_video_id) p.youtube_video_id, p.id, p.target_locales, p.status, p.usage_state
      from projects p
      where p.workspace_id = r.workspace_id and p.youtube_video_id = any(array(select json_array_elements_text(r.video_ids)))
      order by p.youtube_video_id, p.seq desc
    ) m) end as matches
  from ${REQUESTS('video_ids json, known_version bigint')}
  left join workspace_youtube_versions pv on pv.workspace_id = r.workspace_id`;

export type ChannelVideoRequest = Omit<VideoPageRequest, 'limit'> & { videoId: string };
export type PageContextRequest = Omit<VideoPageRequest, 'limit'> & {
  videoIds: readonly string[];
  /** The workspace's YouTube projects version the caller remembers this page's matches at, if any. */
  knownProjectsVersion: number | null;
};

/** The per-request reads of the video search, each coalesced with the same reads of concurrent requests (batchedRead). */
export interface VideoReads {
  /**
   * One video of a channel by its exact id, with the page context (the connection still holds, as
   * the primary when the primary was asked for; the workspace's newest project for it): key
   * lookups only. A channel without that video gives an empty page.
   */
  channelVideo: BatchedRead<ChannelVideoRequest, VideoPage>;
  /**
   * What a page of videos needs from the caller's workspace: whether the connection still holds
   * (so a remembered channel is never trusted), the mirror's version (a remembered page is still
   * what the search would answer only if it did not move), the workspace's YouTube projects
   * version, and the matching projects, newest per video (only this workspace's), unless they are
   * still those the caller remembers at `knownProjectsVersion`.
   */
  pageContext: BatchedRead<PageContextRequest, PageContextRead>;
}

/**
 * Both reads run as prepared statements (key lookups, so one generic plan serves every call),
 * one statement per batch of requests, answered row `i` to request `i`.
 */
export function videoReads(db: Db): VideoReads {
  return {
    channelVideo: batchedRead(async (requests) => {
      type Row = ListedVideo & { i: number; connected: boolean; mirror_version: number | null; match: Omit<MatchingProjectRow, 'youtube_video_id'> | null };
      const rows = await runPrepared<Row>(db, CHANNEL_VIDEOS_SQL, [requestsJson(requests, (r) => `"video_id":${JSON.stringify(r.videoId)}`)]);
      return inRequestOrder(rows, requests.length).map((row) => {
        const found = row.id !== null;
        const video: ListedVideo = { id: row.id, title: row.title, duration_seconds: row.duration_seconds, published_at: row.published_at, availability: row.availability };
        const matches = new Map<string, MatchingProjectRow>();
        if (found && row.match) matches.set(row.id, { ...row.match, youtube_video_id: row.id });
        return { videos: found ? [video] : [], context: { connected: row.connected, mirrorVersion: row.mirror_version, matches } };
      });
    }),
    pageContext: batchedRead(async (requests) => {
      type Row = { i: number; connected: boolean; mirror_version: number | null; projects_version: number; matches: MatchingProjectRow[] | null };
      const rows = await runPrepared<Row>(db, PAGE_CONTEXTS_SQL, [requestsJson(requests, (r) => `"known_version":${JSON.stringify(r.knownProjectsVersion)},"video_ids":${idsJson(r.videoIds)}`)]);
      return inRequestOrder(rows, requests.length).map((row) => ({
        connected: row.connected,
        mirrorVersion: row.mirror_version,
        projectsVersion: row.projects_version,
        matches: row.matches === null ? undefined : new Map(row.matches.map((m) => [m.youtube_video_id, m])),
      }));
    }),
  };
}

/** Rows numbered `i` from 1, put back in the order of the requests. */
function inRequestOrder<R extends { i: number }>(rows: readonly R[], count: number): R[] {
  const ordered = new Array<R>(count);
  for (const row of rows) ordered[row.i - 1] = row;
  return ordered;
}

/**
 * A page of a channel's videos, newest first, with the channel's mirror_version read in the same
 * statement (so a remembered page is never newer or older than its version): without a query,
 * the ordered index scan that stops at the limit (prepared); with one, the title search, planned
 * on every call because its best plan follows the pattern (a common word walks the newest-first
 * index, a rare one uses the trigram index). `mirrorVersion` is null for an empty page.
 */
export async function listVideoPage(db: Db, search: { channelId: string; query?: string; limit: number }): Promise<{ videos: ListedVideo[]; mirrorVersion: number | null }> {
  const titleFilter = search.query === undefined ? sql`` : sql` and title ilike ${containsPattern(search.query)}`;
  const { rows } = await sql<ListedVideo & { mirror_version: number }>`${search.query === undefined ? prepared : sql``}
    select id, title, duration_seconds, published_at, availability, (select mirror_version from youtube_channels where id = ${search.channelId}) as mirror_version
    from youtube_videos where channel_id = ${search.channelId}${titleFilter}
    order by published_at desc, id desc limit ${search.limit}`.execute(db);
  const videos = rows.map(({ mirror_version: _, ...video }) => video);
  return { videos, mirrorVersion: rows[0]?.mirror_version ?? null };
}

export interface PageContext {
  /** The workspace still has this channel connected (as its primary, when asked for the primary). */
  connected: boolean;
  /** The channel's mirror_version when the page was read (null if the channel row is gone). */
  mirrorVersion: number | null;
  /** The workspace's newest project for each video of the page that has one. */
  matches: ReadonlyMap<string, MatchingProjectRow>;
}

/** A page's context as reads.pageContext answers it. */
export interface PageContextRead extends Omit<PageContext, 'matches'> {
  /** The workspace's YouTube projects version (workspace_youtube_versions) in the same snapshot. */
  projectsVersion: number;
  /** Undefined when that version is still the request's knownProjectsVersion: the remembered matches stand. */
  matches: Map<string, MatchingProjectRow> | undefined;
}
