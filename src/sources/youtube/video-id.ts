import { isVideoId } from '../../shared/youtube-video-id';

// yt-dlp is handed a URL built here from a validated 11-character id and the operator's
// template, never a caller's string: a caller cannot point the downloader at another site, a
// playlist, a local file, or smuggle an option in.

export { isVideoId, VIDEO_ID_PATTERN } from '../../shared/youtube-video-id';

const ID_PLACEHOLDER = '{id}';
const SAMPLE_ID = 'aaaaaaaaaaa';

/**
 * Checks a watch-URL template once, at construction: `{id}` exactly once, and an http(s) URL once
 * filled in (so the argument can never start with "-" or name a file).
 */
export function assertWatchUrlTemplate(template: string): void {
  if (template.split(ID_PLACEHOLDER).length !== 2) {
    throw new Error(`watch URL template must contain ${ID_PLACEHOLDER} exactly once`);
  }
  let url: URL;
  try {
    url = new URL(template.replace(ID_PLACEHOLDER, SAMPLE_ID));
  } catch {
    throw new Error('watch URL template is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('watch URL template must use http or https');
  }
}

/** The URL of one video. Throws on an invalid id or template, before anything is spawned. */
export function watchUrl(template: string, videoId: string): string {
  if (!isVideoId(videoId)) throw new Error('invalid YouTube video id');
  assertWatchUrlTemplate(template);
  // A replacer function, so "$&" or "$1" in the template are not treated as patterns.
  return template.replace(ID_PLACEHOLDER, () => videoId);
}
