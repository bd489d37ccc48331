import { sql, type ColumnType } from 'kysely';
import type { Db } from './create-db';

// What the video search's live Data API lookups remember, shared by every API process (migration
// 0023): ids recently looked up in vain, and each workspace's lookups per clock hour. The quota
// they protect is the service's, so neither may be per process.

export interface YoutubeLookupMissTable {
  video_id: string;
  /** The channel the video belongs to; null when the Data API had no such video. */
  owner_channel_id: string | null;
  looked_up_at: ColumnType<Date, Date | undefined, Date>;
}

export interface YoutubeLookupBudgetTable {
  workspace_id: string;
  window_start: Date;
  used: number;
}

export interface LookupClaim {
  workspaceId: string;
  channelId: string;
  videoId: string;
  /** How long a miss is remembered; 0 remembers none. */
  missTtlSeconds: number;
  /** Live lookups a workspace may make per clock hour; 0 is unlimited. */
  perHour: number;
}

/** The clock hour (UTC) a lookup counts in, on the database's clock: one clock for every process. */
const WINDOW = sql<Date>`date_trunc('hour', now() at time zone 'UTC') at time zone 'UTC'`;

/**
 * Decides one live lookup in one statement: `remembered_miss` when the id was looked up within
 * the TTL and is not this channel's; otherwise one lookup is taken from the workspace's hour
 * (`granted`), or none is left (`budget_exhausted`). The row lock of the upsert serializes a
 * workspace's concurrent claims, so no process grants past the budget.
 */
export async function claimVideoLookup(db: Db, claim: LookupClaim): Promise<'remembered_miss' | 'budget_exhausted' | 'granted'> {
  const { rows } = await sql<{ missed: boolean; used: number | null }>`
    with miss as (
      select 1 from youtube_lookup_misses
      where video_id = ${claim.videoId}
        and looked_up_at > now() - make_interval(secs => ${claim.missTtlSeconds})
        and owner_channel_id is distinct from ${claim.channelId}
    ), past as (
      delete from youtube_lookup_budgets where workspace_id = ${claim.workspaceId} and window_start < ${WINDOW}
    ), spent as (
      insert into youtube_lookup_budgets as b (workspace_id, window_start, used)
      select ${claim.workspaceId}, ${WINDOW}, 1 where not exists (select 1 from miss) and ${claim.perHour} <> 0
      on conflict (workspace_id, window_start) do update set used = b.used + 1 where b.used < ${claim.perHour}
      returning used
    )
    select exists (select 1 from miss) as missed, (select used from spent) as used`.execute(db);
  const row = rows[0]!;
  if (row.missed) return 'remembered_miss';
  return claim.perHour === 0 || row.used !== null ? 'granted' : 'budget_exhausted';
}

/** Remembers an id the Data API did not have for the channel asked; forgets misses past the TTL. */
export async function rememberLookupMiss(db: Db, miss: { videoId: string; ownerChannelId: string | null; missTtlSeconds: number }): Promise<void> {
  if (miss.missTtlSeconds === 0) return;
  await sql`
    with stale as (
      delete from youtube_lookup_misses where looked_up_at <= now() - make_interval(secs => ${miss.missTtlSeconds}) and video_id <> ${miss.videoId}
    )
    insert into youtube_lookup_misses (video_id, owner_channel_id, looked_up_at) values (${miss.videoId}, ${miss.ownerChannelId}, now())
    on conflict (video_id) do update set owner_channel_id = excluded.owner_channel_id, looked_up_at = excluded.looked_up_at`.execute(db);
}
