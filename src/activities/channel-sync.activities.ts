import { ApplicationFailure, Context } from '@temporalio/activity';
import { findMirroredChannel, leastRecentlyCheckedVideoIds, markVideosRemoved, mirroredVideoIds, recordSyncError, recordSyncSuccess } from '../db/channel-sync';
import type { Db } from '../db/create-db';
import { upsertVideos } from '../db/youtube';
import { isRetryableSourceError, mirroredVideo, type ChannelUploadsSource } from '../sources/youtube/video-lookup';

// Keeps the mirror of one channel's uploads. Incremental: it pages the uploads playlist (newest
// first) only until it reaches a video it already has. A bounded batch of the least recently
// checked videos is re-read each run, so one that turned private or was removed is marked so
// (never deleted: projects keep pointing at it). Quota: 1 unit per page of 50 and per 50 videos.

export interface ChannelSyncDeps {
  db: Db;
  youtube: ChannelUploadsSource | null;
}

export interface ChannelSyncResult {
  added: number;
  refreshed: number;
  markedUnavailable: number;
  pages: number;
}

const PAGE_LIMIT = 200; // 10,000 videos per run at most; the next run carries on
const REFRESH_BATCH = 100;
const BATCH = 50;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A channel with no public uploads may have no readable uploads playlist: that is no videos. */
async function listUploadsOrNone(youtube: ChannelUploadsSource, playlistId: string, pageToken?: string) {
  try {
    return await youtube.listUploads(playlistId, pageToken);
  } catch (err) {
    if ((err as { reason?: string }).reason === 'playlistNotFound') return { videoIds: [], nextPageToken: null };
    throw err;
  }
}

export function createChannelSyncActivities({ db, youtube }: ChannelSyncDeps) {
  /** Quota and network errors retry with the workflow's backoff; a bad key or a gone channel does not. */
  const classify = (err: unknown): unknown => {
    if (isRetryableSourceError(err)) return err;
    const reason = (err as { reason?: string }).reason ?? 'youtube_error';
    return ApplicationFailure.nonRetryable((err as Error).message, reason);
  };

  return {
    async syncChannel(channelId: string): Promise<ChannelSyncResult> {
      if (!youtube) throw ApplicationFailure.nonRetryable('YOUTUBE_API_KEY is not configured', 'not_configured');
      const channel = await findMirroredChannel(db, channelId);
      if (!channel) throw ApplicationFailure.nonRetryable(`channel ${channelId} is not in the mirror`, 'channel_not_found');
      const result: ChannelSyncResult = { added: 0, refreshed: 0, markedUnavailable: 0, pages: 0 };
      try {
        // 1. New uploads, newest first, until one we already have.
        const fresh: string[] = [];
        let pageToken: string | undefined;
        for (let page = 0; page < PAGE_LIMIT; page++) {
          const { videoIds, nextPageToken } = await listUploadsOrNone(youtube, channel.uploads_playlist_id, pageToken);
          result.pages++;
          Context.current().heartbeat({ pages: result.pages });
          const ids = videoIds.map((v) => v.id);
          const known = await mirroredVideoIds(db, ids);
          const unknown = ids.filter((id) => !known.has(id));
          fresh.push(...unknown);
          if (unknown.length < ids.length || !nextPageToken) break;
          pageToken = nextPageToken;
        }
        for (const batch of chunks(fresh, BATCH)) {
          const videos = (await youtube.getVideos(batch)).filter((v) => v.channelId === channelId);
          await upsertVideos(db, videos.map(mirroredVideo));
          result.added += videos.length;
          Context.current().heartbeat({ added: result.added });
        }

        // 2. Re-check the least recently checked videos: private, removed, or changed.
        const stale = await leastRecentlyCheckedVideoIds(db, { channelId, except: fresh, limit: REFRESH_BATCH });
        for (const batch of chunks(stale, BATCH)) {
          const found = await youtube.getVideos(batch);
          await upsertVideos(db, found.filter((v) => v.channelId === channelId).map(mirroredVideo));
          const gone = batch.filter((id) => !found.some((v) => v.id === id));
          if (gone.length) {
            await markVideosRemoved(db, gone);
          }
          result.refreshed += found.length;
          result.markedUnavailable += gone.length;
        }
      } catch (err) {
        await recordSyncError(db, channelId, (err as Error).message?.slice(0, 500) ?? 'sync failed');
        throw classify(err);
      }
      await recordSyncSuccess(db, channelId);
      return result;
    },
  };
}

export type ChannelSyncActivities = ReturnType<typeof createChannelSyncActivities>;
