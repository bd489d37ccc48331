import { sql } from 'kysely';
import type { Db } from './create-db';
import type { YoutubeChannel } from './youtube';

// What a channel sync reads and writes of the mirror beyond the videos it upserts (upsertVideos):
// which ids it already has, which it should check again, the ones YouTube no longer lists, and
// the channel's sync bookkeeping. The tables' types live in youtube.ts.

export async function findMirroredChannel(db: Db, channelId: string): Promise<YoutubeChannel | undefined> {
  return db.selectFrom('youtube_channels').selectAll().where('id', '=', channelId).executeTakeFirst();
}

/** Which of these video ids the mirror already has. */
export async function mirroredVideoIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('youtube_videos').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** The channel's videos checked longest ago, leaving out `except` (just fetched): up to `limit` ids. */
export async function leastRecentlyCheckedVideoIds(db: Db, input: { channelId: string; except: readonly string[]; limit: number }): Promise<string[]> {
  const rows = await db
    .selectFrom('youtube_videos')
    .select('id')
    .where('channel_id', '=', input.channelId)
    .where('id', 'not in', input.except.length ? input.except : [''])
    .orderBy('updated_at')
    .limit(input.limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Videos YouTube no longer returns: kept (projects point at them), marked unavailable. */
export async function markVideosRemoved(db: Db, ids: readonly string[]): Promise<void> {
  await db
    .updateTable('youtube_videos')
    .set({ availability: 'unavailable', unavailable_reason: 'removed from YouTube', updated_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}

/** Why the channel's last sync failed, shown by channels:list; its last success stays as it was. */
export async function recordSyncError(db: Db, channelId: string, error: string): Promise<void> {
  await db.updateTable('youtube_channels').set({ last_sync_error: error }).where('id', '=', channelId).execute();
}

export async function recordSyncSuccess(db: Db, channelId: string): Promise<void> {
  await db
    .updateTable('youtube_channels')
    .set({ last_synced_at: sql<Date>`now()`, last_sync_error: null })
    .where('id', '=', channelId)
    .execute();
}
