import { parseIso8601Duration } from './iso8601-duration';
import { videoAvailability, type VideoAvailability } from './video-availability';
import { YouTubeApiError } from './youtube-api-error';

// The Data API v3 resources as they come over the wire (only the fields we read), and their
// mapping to what the product stores. Kept apart from the HTTP client so the rules are testable
// on plain objects.

export interface YouTubeChannel {
  id: string;
  title: string;
  /** '@name' as YouTube shows it (snippet.customUrl); absent for channels without a handle. */
  handle?: string;
  /** The "UU…" playlist that lists every public upload, newest first. */
  uploadsPlaylistId: string;
}

export interface YouTubeVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  /** RFC 3339 timestamp, as the API gives it. */
  publishedAt: string;
  /** null when the API gives no duration we can read. Upcoming broadcasts report 0 ('P0D'). */
  durationSeconds: number | null;
  privacyStatus: string;
  uploadStatus: string;
  liveBroadcastContent: string;
  embeddable: boolean;
  ageRestricted: boolean;
  regionRestriction: { allowed?: string[]; blocked?: string[] } | null;
  availability: VideoAvailability;
  unavailableReason: string | null;
}

export interface WireChannel {
  id: string;
  snippet?: { title?: string; customUrl?: string };
  contentDetails?: { relatedPlaylists?: { uploads?: string } };
}

export interface WirePlaylistItem {
  contentDetails?: { videoId?: string; videoPublishedAt?: string };
}

export interface WireVideo {
  id: string;
  snippet?: { publishedAt?: string; channelId?: string; title?: string; description?: string; liveBroadcastContent?: string };
  contentDetails?: {
    duration?: string;
    contentRating?: { ytRating?: string };
    regionRestriction?: { allowed?: string[]; blocked?: string[] };
  };
  status?: {
    uploadStatus?: string;
    failureReason?: string;
    rejectionReason?: string;
    privacyStatus?: string;
    embeddable?: boolean;
  };
}

export function toChannel(wire: WireChannel): YouTubeChannel {
  const uploadsPlaylistId = wire.contentDetails?.relatedPlaylists?.uploads;
  if (!uploadsPlaylistId) throw invalid(`channel ${wire.id} has no contentDetails.relatedPlaylists.uploads`);
  const customUrl = wire.snippet?.customUrl;
  return {
    id: wire.id,
    title: wire.snippet?.title ?? '',
    // Older channels may still carry a legacy custom URL without '@'; that is not a handle.
    ...(customUrl?.startsWith('@') ? { handle: customUrl } : {}),
    uploadsPlaylistId,
  };
}

/**
 * null for an item the key cannot see: a private or deleted video stays in a playlist without
 * videoPublishedAt. Leaving it out matches videos.list, which omits such videos too, so the
 * caller treats both the same way (gone).
 */
export function toUpload(wire: WirePlaylistItem): { id: string; publishedAt: string } | null {
  const id = wire.contentDetails?.videoId;
  const publishedAt = wire.contentDetails?.videoPublishedAt;
  return id && publishedAt ? { id, publishedAt } : null;
}

export function toVideo(wire: WireVideo): YouTubeVideo {
  const { snippet, contentDetails, status } = wire;
  if (!snippet?.channelId || !snippet.publishedAt || !status?.privacyStatus || !status.uploadStatus) {
    throw invalid(`video ${wire.id} lacks snippet or status fields`);
  }
  const fields = {
    privacyStatus: status.privacyStatus,
    uploadStatus: status.uploadStatus,
    liveBroadcastContent: snippet.liveBroadcastContent ?? 'none',
  };
  const restriction = contentDetails?.regionRestriction;
  return {
    id: wire.id,
    channelId: snippet.channelId,
    title: snippet.title ?? '',
    description: snippet.description ?? '',
    publishedAt: snippet.publishedAt,
    durationSeconds: contentDetails?.duration === undefined ? null : parseIso8601Duration(contentDetails.duration),
    ...fields,
    // The API always sends it with part=status; if it ever does not, do not block the video on it.
    embeddable: status.embeddable ?? true,
    ageRestricted: contentDetails?.contentRating?.ytRating === 'ytAgeRestricted',
    regionRestriction: restriction ? { ...(restriction.allowed ? { allowed: restriction.allowed } : {}), ...(restriction.blocked ? { blocked: restriction.blocked } : {}) } : null,
    ...videoAvailability({ ...fields, rejectionReason: status.rejectionReason, failureReason: status.failureReason }),
  };
}

// Not retryable: the same request would get the same shape back and spend quota for nothing.
function invalid(message: string): YouTubeApiError {
  return new YouTubeApiError(200, 'invalidResponse', `YouTube answered an unexpected shape: ${message}`, false);
}
