// What a user may paste to connect a channel: a channel id, an @handle, or a channel page URL.
// Anything else (legacy /user/ and /c/ URLs, video URLs, bare names) is refused up front, because
// resolving it would need search.list (100 quota units and fuzzy matches).

export type ChannelRef = { id: string } | { handle: string };

/** A channel id as YouTube issues them: UC and 22 URL-safe base64 characters. */
export const CHANNEL_ID_PATTERN = /^UC[A-Za-z0-9_-]{22}$/;
// Handles are 3–30 letters (any script), digits, '_', '-', '.', or '·' (for Catalan).
const HANDLE = /^@[\p{L}\p{M}\p{N}_.·-]{3,30}$/u;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);

/** `{ id }` for a UC… id, `{ handle: '@name' }` for a handle, null for anything else. */
export function parseChannelRef(ref: string): ChannelRef | null {
  const value = ref.trim();
  if (CHANNEL_ID_PATTERN.test(value)) return { id: value };
  if (HANDLE.test(value)) return { handle: value };
  return parseChannelUrl(value);
}

function parseChannelUrl(value: string): ChannelRef | null {
  // People paste "youtube.com/@name" without a scheme as often as with one.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!YOUTUBE_HOSTS.has(url.hostname.toLowerCase()) || url.username || url.password || url.port) return null;
  // Trailing tabs (/videos, /featured…) still name the same channel.
  const [first, second] = url.pathname.split('/').filter(Boolean).map(safeDecode);
  if (first === 'channel' && second !== undefined && CHANNEL_ID_PATTERN.test(second)) return { id: second };
  if (first !== undefined && HANDLE.test(first)) return { handle: first };
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
