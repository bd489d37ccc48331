import type { QuietSpan } from './silence-finder';

// Where to cut a long recording so its chunks can be recognized in parallel. Cuts go only in
// pauses, never inside sound: a word split between two chunks would be lost or doubled. A cut
// with no pause near it is dropped, giving fewer, longer chunks rather than a split word.

export interface ChunkPlanOptions {
  /** How many chunks at most (the cores the recognizer may use). */
  maxChunks: number;
  /** A recording shorter than this is one chunk: start-up and lead-in would eat the gain. */
  minSplitSeconds?: number;
  /** How far from the equal-division point a pause may be, as a fraction of a chunk's length. */
  searchFraction?: number;
  /** Audio before each cut that the chunk's decoder hears first and whose words are dropped. */
  leadInSeconds?: number;
  /** A pause at least this long is preferred for a cut: the further from speech, the safer. */
  longPauseSeconds?: number;
}

export interface AudioChunk {
  /** Where the chunk's own words begin (a cut, or 0). */
  startSeconds: number;
  /** Where the next chunk begins (or the end of the recording). */
  endSeconds: number;
  /** Where the audio given to the decoder begins: at or before startSeconds (the lead-in), on a 10 ms frame. */
  decodeFromSeconds: number;
}

export const DEFAULT_MIN_SPLIT_SECONDS = 20;
/**
 * pocketsphinx's live CMN starts each process at the model's cmninit (c0 41, against about 61 for
 * espeak-ng speech) and moves only after 8 s of speech or at an utterance end, and `-cmninit` on
 * the command line is overridden by the model's feat.params. A lead-in whose words are dropped
 * lets the estimate settle before the cut: measured on the 60 s bench clip, 6 s of lead-in cut
 * the differing words after a cut from 68 to 51 of 79; it matches fully when the lead-in holds
 * an utterance end (see the engine test).
 */
export const DEFAULT_LEAD_IN_SECONDS = 5;

export function planChunks(durationSeconds: number, quiet: readonly QuietSpan[], options: ChunkPlanOptions): AudioChunk[] {
  const minSplit = options.minSplitSeconds ?? DEFAULT_MIN_SPLIT_SECONDS;
  const whole: AudioChunk[] = [{ startSeconds: 0, endSeconds: durationSeconds, decodeFromSeconds: 0 }];
  const count = Math.floor(options.maxChunks);
  if (count < 2 || durationSeconds < minSplit) return whole;

  const chunkSeconds = durationSeconds / count;
  const reach = chunkSeconds * (options.searchFraction ?? 0.25);
  const longPause = options.longPauseSeconds ?? 0.6;
  const cuts: number[] = [];
  for (let k = 1; k < count; k++) {
    const target = k * chunkSeconds;
    const previous = cuts[cuts.length - 1] ?? 0;
    // Only pauses wholly past the previous cut, and inside the reach of this one's target.
    const near = quiet.filter((q) => q.startSeconds > previous && q.endSeconds < durationSeconds && Math.abs(middle(q) - target) <= reach);
    if (near.length === 0) continue;
    // A long pause keeps the cut well clear of speech; among those (or, failing one, among
    // all), the one nearest the target keeps the chunks even.
    const long = near.filter((q) => q.endSeconds - q.startSeconds >= longPause);
    const pool = long.length > 0 ? long : near;
    const best = pool.reduce((a, b) => (Math.abs(middle(b) - target) < Math.abs(middle(a) - target) ? b : a));
    cuts.push(middle(best));
  }
  if (cuts.length === 0) return whole;

  const leadIn = options.leadInSeconds ?? DEFAULT_LEAD_IN_SECONDS;
  const bounds = [0, ...cuts, durationSeconds];
  return bounds.slice(0, -1).map((start, i) => ({
    startSeconds: start,
    endSeconds: bounds[i + 1]!,
    // On the decoder's 10 ms frame grid: a chunk whose frames fall between the whole file's
    // frames gets different features, and pocketsphinx's words change with them (measured: a
    // 17-sample shift changed words from the first second on).
    decodeFromSeconds: Math.round(leadInStart(start, leadIn, quiet) * 100) / 100,
  }));
}

/**
 * The lead-in starts in a pause too (the latest one at least `leadIn` before the cut), so the
 * decoder does not begin mid-word; with no such pause it starts `leadIn` before the cut.
 */
function leadInStart(cut: number, leadIn: number, quiet: readonly QuietSpan[]): number {
  if (cut === 0 || leadIn <= 0) return cut;
  const wanted = Math.max(0, cut - leadIn);
  const before = quiet.filter((q) => middle(q) <= wanted && middle(q) >= wanted - leadIn);
  return before.length > 0 ? middle(before[before.length - 1]!) : wanted;
}

/** Decoder times are printed in milliseconds; keep sums there rather than at 13.850000000000001. */
function ms(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

function middle(q: QuietSpan): number {
  return (q.startSeconds + q.endSeconds) / 2;
}

/**
 * A chunk decoder's words on the recording's clock: shifted by where its audio began, without
 * the lead-in's words (the previous chunk owns those).
 */
export function placeChunkWords<W extends { startSeconds: number; endSeconds: number }>(chunk: AudioChunk, words: readonly W[]): W[] {
  return words
    .map((w) => ({ ...w, startSeconds: ms(w.startSeconds + chunk.decodeFromSeconds), endSeconds: ms(w.endSeconds + chunk.decodeFromSeconds) }))
    .filter((w) => w.startSeconds >= chunk.startSeconds);
}
