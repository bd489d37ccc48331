import type { RecognizedSegment } from './speech-recognizer';
import type { TimedWord } from './pocketsphinx-output';

// pocketsphinx gives words, not sentences. Translation and dubbing work per sentence-like chunk,
// and a pause is the best sentence boundary we can see without punctuation.

export interface GroupingOptions {
  /** A gap between words at least this long starts a new segment. */
  minPauseSeconds?: number;
  /** A segment longer than this is closed at the next word, so no dub clip runs on forever. */
  maxSegmentSeconds?: number;
}

export const DEFAULT_MIN_PAUSE_SECONDS = 0.35;
export const DEFAULT_MAX_SEGMENT_SECONDS = 8;

export function groupWords(words: readonly TimedWord[], options: GroupingOptions = {}): RecognizedSegment[] {
  const minPause = options.minPauseSeconds ?? DEFAULT_MIN_PAUSE_SECONDS;
  const maxLength = options.maxSegmentSeconds ?? DEFAULT_MAX_SEGMENT_SECONDS;
  const segments: RecognizedSegment[] = [];
  let current: TimedWord[] = [];

  const close = (): void => {
    if (current.length === 0) return;
    segments.push({
      startSeconds: current[0]!.startSeconds,
      endSeconds: current[current.length - 1]!.endSeconds,
      text: toSentence(current.map((w) => w.word)),
    });
    current = [];
  };

  for (const word of words) {
    const last = current[current.length - 1];
    if (last) {
      // Small epsilon: decoder times are in 10 ms frames printed with 3 decimals.
      const pause = word.startSeconds - last.endSeconds;
      const length = word.endSeconds - current[0]!.startSeconds;
      if (pause >= minPause - 1e-6 || length > maxLength) close();
    }
    current.push(word);
  }
  close();
  return segments;
}

export function toSentence(words: readonly string[]): string {
  // The en-us dictionary is lower case, and apertium does not recognize a lower-case "i".
  const text = words
    .map((w) => (/^i('(m|ll|ve|d))?$/.test(w) ? `I${w.slice(1)}` : w))
    .join(' ')
    .trim();
  if (!text) return '';
  const capitalized = text.charAt(0).toLocaleUpperCase('en-US') + text.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
