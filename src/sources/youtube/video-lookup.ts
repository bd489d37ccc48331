import type { YouTubeVideo } from './data-api-resources';

/**
 * What the API needs from the Data API: metadata for a few video ids (`videos.list`, 1 quota
 * unit). The real client implements it; null in AppDeps when no YOUTUBE_API_KEY is configured.
 */
export interface VideoLookup {
  getVideos(ids: string[]): Promise<LookedUpVideo[]>;
}

/** The fields of a Data API video the product reads (the real client returns more). */
export type LookedUpVideo = Pick<YouTubeVideo, 'id' | 'channelId' | 'title' | 'description' | 'publishedAt' | 'durationSeconds' | 'availability' | 'unavailableReason'> &
  Partial<Pick<YouTubeVideo, 'ageRestricted'>>;

/** A looked-up video as the mirror keeps it (youtube_videos' columns). */
export const mirroredVideo = (v: LookedUpVideo) => ({
  id: v.id,
  channel_id: v.channelId,
  title: v.title,
  description: v.description,
  published_at: new Date(v.publishedAt),
  duration_seconds: v.durationSeconds,
  availability: v.availability,
  unavailable_reason: v.unavailableReason,
});

/** What the mirror needs from the Data API (the real client implements it; 1 quota unit a call). */
export interface ChannelUploadsSource extends VideoLookup {
  listUploads(playlistId: string, pageToken?: string): Promise<{ videoIds: { id: string; publishedAt: string }[]; nextPageToken: string | null }>;
}

/** Data API errors say whether a retry can help (quota, 5xx, network) or not (bad key, gone). */
export const isRetryableSourceError = (err: unknown): boolean => (err as { retryable?: unknown } | null)?.retryable !== false;
