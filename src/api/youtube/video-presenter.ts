import type { ListedVideo, MatchingProjectRow } from '../../db/youtube';

/**
 * The public shape of a mirrored video (docs/design.md#youtube). `matching_project.state`:
 * `verified` once the project fetched and validated this video as its source (it was charged,
 * even if later refunded), `failed` when the source could not be used (unavailable, invalid, over
 * the ceiling, not paid for), `pending` before either.
 */
export function presentVideo(video: ListedVideo, match: MatchingProjectRow | undefined) {
  return {
    youtube_video_id: video.id,
    title: video.title,
    url: `https://www.youtube.com/watch?v=${video.id}`,
    duration_seconds: video.duration_seconds,
    published_at: video.published_at.toISOString(),
    availability: video.availability,
    ...(match ? { matching_project: { project_id: match.id, state: matchingState(match), target_locales: match.target_locales } } : {}),
  };
}

function matchingState(project: Pick<MatchingProjectRow, 'status' | 'usage_state'>): 'verified' | 'pending' | 'failed' {
  if (project.usage_state === 'charged' || project.usage_state === 'refunded') return 'verified';
  if (project.usage_state === 'pending_validation' && project.status !== 'failed') return 'pending';
  return 'failed';
}
