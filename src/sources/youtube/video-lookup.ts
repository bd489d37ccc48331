import type { VideoAvailability } from '../../db/youtube';

/**
 * What the API needs from the Data API: metadata for a few video ids (`videos.list`, 1 quota
 * unit). The real client implements it; null in AppDeps when no YOUTUBE_API_KEY is configured.
 */
export interface VideoLookup {
  getVideos(ids: string[]): Promise<LookedUpVideo[]>;
}

export interface LookedUpVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  publishedAt: string;
  durationSeconds: number | null;
  availability: VideoAvailability;
  unavailableReason: string | null;
}
