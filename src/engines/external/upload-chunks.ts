import type { QuietSpan } from '../asr/silence-finder';

// Where to cut a recording a server will not take in one request (OpenAI's own limit is 25 MB).
// As in src/engines/asr/chunk-plan.ts, cuts go in pauses so no word is split between two
// requests; unlike there, each chunk must fit the limit whatever the audio holds, so a stretch
// with no pause near its end is cut at the limit (the one place a word may be split).

export interface UploadChunk {
  startSeconds: number;
  endSeconds: number;
}

export interface UploadChunkOptions {
  /** The longest chunk that fits one request. */
  maxChunkSeconds: number;
  /** How far before the limit a pause is looked for: at most this, and at most a quarter of a chunk. */
  searchSeconds?: number;
}

export const DEFAULT_SEARCH_SECONDS = 30;

/**
 * Chunks covering [0, duration), each at most `maxChunkSeconds`. `quietBetween` is asked only for
 * the stretch before each limit, so a caller reading samples from disk reads that much and no
 * more; the pause nearest the limit wins (the fewest requests).
 */
export async function planUploadChunks(
  durationSeconds: number,
  options: UploadChunkOptions,
  quietBetween: (fromSeconds: number, toSeconds: number) => Promise<readonly QuietSpan[]>,
): Promise<UploadChunk[]> {
  const max = options.maxChunkSeconds;
  if (!(max > 0)) throw new RangeError(`maxChunkSeconds must be positive (got ${max})`);
  const reach = Math.min(options.searchSeconds ?? DEFAULT_SEARCH_SECONDS, max / 4);
  const chunks: UploadChunk[] = [];
  let start = 0;
  while (durationSeconds - start > max) {
    const limit = start + max;
    const quiet = (await quietBetween(limit - reach, limit)).filter((q) => q.startSeconds >= limit - reach && q.endSeconds <= limit);
    const last = quiet[quiet.length - 1];
    const cut = last ? (last.startSeconds + last.endSeconds) / 2 : limit;
    chunks.push({ startSeconds: start, endSeconds: cut });
    start = cut;
  }
  chunks.push({ startSeconds: start, endSeconds: durationSeconds });
  return chunks;
}
