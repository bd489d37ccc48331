import { MAX_DOWNLOAD_TIMEOUT_MS } from '../shared/source-download-limits';
import type { Reader } from './reader';

// YouTube: the Data API for channels and search, yt-dlp for the videos (docs/design.md#youtube).

export interface YoutubeConfig {
  /** Data API v3 key; null disables connecting channels (and exact-id lookups). */
  readonly apiKey: string | null;
  /** Data API v3 base URL (the public one by default; tests point it at a local double). */
  readonly apiBaseUrl: string;
  /** Where yt-dlp fetches a video from; `{id}` is the validated 11-character id. */
  readonly watchUrlTemplate: string;
  /** The yt-dlp binary: operators run a newer one than the distribution's against the real site. */
  readonly ytdlpPath: string;
  /** One yt-dlp run, killed after; at most MAX_DOWNLOAD_TIMEOUT_MS so it ends inside its activity. */
  readonly downloadTimeoutMs: number;
  /** How often each connected channel's mirror is refreshed. */
  readonly syncIntervalMinutes: number;
  /**
   * How long the video search remembers an exact id the Data API did not have for the channel
   * searched (docs/rate-limits.md); 0 remembers none.
   */
  readonly lookupMissTtlSeconds: number;
  /** Live Data API lookups of exact ids each workspace's searches may make per clock hour; 0: unlimited. */
  readonly lookupsPerHour: number;
}

export function readYoutube(read: Reader): YoutubeConfig {
  return {
    apiKey: read.optional('YOUTUBE_API_KEY'),
    apiBaseUrl: read.url('YOUTUBE_API_BASE_URL', 'https://www.googleapis.com/youtube/v3', ['http:', 'https:']) ?? 'https://www.googleapis.com/youtube/v3',
    watchUrlTemplate: read.string('YOUTUBE_WATCH_URL_TEMPLATE', 'https://www.youtube.com/watch?v={id}'),
    ytdlpPath: read.string('YTDLP_PATH', 'yt-dlp'),
    // At most what the download step keeps for yt-dlp (src/shared/source-download-limits.ts):
    // a longer run would outlive the attempt, and Temporal would start another beside it.
    downloadTimeoutMs: read.int('YOUTUBE_DOWNLOAD_TIMEOUT_MS', 30 * 60_000, 1000, MAX_DOWNLOAD_TIMEOUT_MS),
    syncIntervalMinutes: read.int('YOUTUBE_SYNC_INTERVAL_MINUTES', 15, 1, 7 * 24 * 60),
    lookupMissTtlSeconds: read.int('YOUTUBE_LOOKUP_MISS_TTL_SECONDS', 3600, 0, 7 * 24 * 3600),
    lookupsPerHour: read.int('YOUTUBE_LOOKUPS_PER_HOUR', 20, 0, 1_000_000),
  };
}
