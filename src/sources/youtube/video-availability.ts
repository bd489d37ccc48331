// Whether a video can be dubbed from its Data API status. Order matters: a private video is
// "private" whatever its upload state, and a live or upcoming broadcast has no finished file yet
// even though its upload status may already read "processed".

import type { VideoAvailability } from '../../shared/video-availability';

export type { VideoAvailability };

export interface VideoStatusFields {
  privacyStatus: string;
  uploadStatus: string;
  liveBroadcastContent: string;
  /** status.rejectionReason (uploadStatus 'rejected'), e.g. 'copyright'. */
  rejectionReason?: string | null;
  /** status.failureReason (uploadStatus 'failed'), e.g. 'codec'. */
  failureReason?: string | null;
}

export function videoAvailability(fields: VideoStatusFields): {
  availability: VideoAvailability;
  unavailableReason: string | null;
} {
  if (fields.privacyStatus === 'private') return { availability: 'private', unavailableReason: 'private' };
  if (fields.liveBroadcastContent === 'live' || fields.liveBroadcastContent === 'upcoming') {
    return { availability: 'live', unavailableReason: fields.liveBroadcastContent };
  }
  if (fields.uploadStatus !== 'processed') {
    // 'uploaded' means YouTube is still processing it: unavailable for now, maybe not for ever.
    const detail = fields.rejectionReason ?? fields.failureReason;
    return { availability: 'unavailable', unavailableReason: detail ? `${fields.uploadStatus}: ${detail}` : fields.uploadStatus };
  }
  // Unlisted videos are reachable by URL, so they count as available.
  return { availability: 'available', unavailableReason: null };
}
