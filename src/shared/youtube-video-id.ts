// A YouTube video id, and the URL shapes YouTube itself hands out for one. Pure (no database,
// no network), so the API, the sources and the `dub` CLI share one definition.

export const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;

export function isVideoId(value: unknown): value is string {
  return typeof value === 'string' && VIDEO_ID_PATTERN.test(value);
}

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);

/**
 * Accepts the URL shapes YouTube itself hands out, and nothing else: watch?v=, youtu.be/,
 * /shorts/, /embed/, /live/ on youtube.com hosts. Returns the 11-character video id.
 */
export function youtubeVideoId(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (host === 'youtu.be') {
    id = url.pathname.split('/')[1] ?? null;
  } else if (YOUTUBE_HOSTS.has(host)) {
    if (url.pathname === '/watch') id = url.searchParams.get('v');
    else {
      const match = /^\/(shorts|embed|live)\/([^/]+)/.exec(url.pathname);
      id = match?.[2] ?? null;
    }
  }
  return isVideoId(id) ? id : null;
}
