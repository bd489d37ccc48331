import type { DiarizeSegment } from './speaker-diarizer';

// A segment that holds two voices is cut where the voice changes, and its text with it: at the
// word boundary nearest the change when the recognizer gave word times, otherwise at the space
// nearest the same share of the text's characters as the change is of the segment's time. A
// cut that would leave a piece shorter than the minimum is not made (nor one with no text).
// docs/speakers.md#finding-speakers

export interface SegmentPiece {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/** `segment` cut at `cuts` (seconds, ascending); one piece, the segment itself, when none can be made. */
export function splitSegment(segment: DiarizeSegment, cuts: readonly number[], minPieceSeconds: number): SegmentPiece[] {
  const whole = [{ startSeconds: segment.startSeconds, endSeconds: segment.endSeconds, text: segment.text }];
  if (cuts.length === 0) return whole;
  const tokens = segment.text.split(/\s+/).filter(Boolean);
  const words = segment.words;
  return words && words.length === tokens.length && words.length > 1 ? splitAtWords(segment, tokens, words, cuts, minPieceSeconds) : splitByCharacters(segment, cuts, minPieceSeconds);
}

function splitAtWords(segment: DiarizeSegment, tokens: string[], words: NonNullable<DiarizeSegment['words']>, cuts: readonly number[], minPiece: number): SegmentPiece[] {
  const pieces: SegmentPiece[] = [];
  let firstWord = 0;
  let start = segment.startSeconds;
  for (const cut of cuts) {
    // Boundary k: between word k − 1 and word k.
    let best = -1;
    for (let k = firstWord + 1; k < words.length; k++) {
      if (words[k - 1]!.endSeconds - start < minPiece || segment.endSeconds - words[k]!.startSeconds < minPiece) continue;
      const at = (words[k - 1]!.endSeconds + words[k]!.startSeconds) / 2;
      const bestAt = best < 0 ? Infinity : (words[best - 1]!.endSeconds + words[best]!.startSeconds) / 2;
      if (Math.abs(at - cut) < Math.abs(bestAt - cut)) best = k;
    }
    if (best < 0) continue;
    pieces.push({ startSeconds: start, endSeconds: words[best - 1]!.endSeconds, text: tokens.slice(firstWord, best).join(' ') });
    firstWord = best;
    start = words[best]!.startSeconds;
  }
  pieces.push({ startSeconds: start, endSeconds: segment.endSeconds, text: tokens.slice(firstWord).join(' ') });
  return pieces;
}

function splitByCharacters(segment: DiarizeSegment, cuts: readonly number[], minPiece: number): SegmentPiece[] {
  const { text, startSeconds, endSeconds } = segment;
  const duration = endSeconds - startSeconds;
  const pieces: SegmentPiece[] = [];
  let fromChar = 0;
  let start = startSeconds;
  for (const cut of cuts) {
    if (cut - start < minPiece || endSeconds - cut < minPiece || duration <= 0) continue;
    const space = nearestSpace(text, Math.round((text.length * (cut - startSeconds)) / duration), fromChar);
    if (space < 0) continue;
    const head = text.slice(fromChar, space).trim();
    if (!head || !text.slice(space).trim()) continue;
    pieces.push({ startSeconds: start, endSeconds: cut, text: head });
    fromChar = space + 1;
    start = cut;
  }
  pieces.push({ startSeconds: start, endSeconds, text: text.slice(fromChar).trim() });
  return pieces;
}

/** Index of the space nearest `at` and after `from`, or −1. */
function nearestSpace(text: string, at: number, from: number): number {
  for (let d = 0; d < text.length; d++) {
    for (const i of [at - d, at + d]) if (i > from && i < text.length && /\s/.test(text[i]!)) return i;
  }
  return -1;
}
