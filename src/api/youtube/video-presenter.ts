import type { ListedVideo, MatchingProjectRow } from '../../db/youtube';

// The public shape of a mirrored video (docs/design.md#youtube) and of its matching project.

/**
 * `matching_project.state`: `verified` once the project fetched and validated this video as its
 * source (it was charged, even if later refunded), `failed` when the source could not be used
 * (unavailable, invalid, over the ceiling, not paid for), `pending` before either.
 */
export function matchingState(project: Pick<MatchingProjectRow, 'status' | 'usage_state'>): 'verified' | 'pending' | 'failed' {
  if (project.usage_state === 'charged' || project.usage_state === 'refunded') return 'verified';
  if (project.usage_state === 'pending_validation' && project.status !== 'failed') return 'pending';
  return 'failed';
}

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

export function presentVideo(video: ListedVideo, match: MatchingProjectRow | undefined) {
  return {
    youtube_video_id: video.id,
    title: video.title,
    url: watchUrl(video.id),
    duration_seconds: video.duration_seconds,
    published_at: video.published_at.toISOString(),
    availability: video.availability,
    ...(match ? { matching_project: { project_id: match.id, state: matchingState(match), target_locales: match.target_locales } } : {}),
  };
}

// A remembered page keeps the same video objects from request to request, so each video's JSON
// without a matching project is written once and reused; a video with a match is written afresh.
const renderedWithoutMatch = new WeakMap<ListedVideo, string>();

function renderVideo(video: ListedVideo, match: MatchingProjectRow | undefined): string {
  if (match) return JSON.stringify(presentVideo(video, match));
  let text = renderedWithoutMatch.get(video);
  if (text === undefined) {
    text = JSON.stringify(presentVideo(video, undefined));
    renderedWithoutMatch.set(video, text);
  }
  return text;
}

// A remembered page answers request after request with the same videos and, while the
// workspace's projects stand, the same matches (video-page-cache): the body they make is written
// once and reused, for as long as that matches object lives.
const renderedBodies = new WeakMap<ReadonlyMap<string, MatchingProjectRow>, { videos: readonly ListedVideo[]; channelId: string; title: string; body: string }>();

/**
 * The body of a video list, byte for byte what JSON.stringify gives for `{ data: { connection_required:
 * false, channel, items } }`, with each item as presentVideo shows it.
 */
export function renderVideoList(channel: { channel_id: string; title: string }, videos: readonly ListedVideo[], matches: ReadonlyMap<string, MatchingProjectRow>): string {
  const known = renderedBodies.get(matches);
  if (known && known.videos === videos && known.channelId === channel.channel_id && known.title === channel.title) return known.body;
  const items = videos.map((video) => renderVideo(video, matches.get(video.id)));
  const body = `{"data":{"connection_required":false,"channel":${JSON.stringify(channel)},"items":[${items.join(',')}]}}`;
  renderedBodies.set(matches, { videos, channelId: channel.channel_id, title: channel.title, body });
  return body;
}
