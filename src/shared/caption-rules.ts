// The common timed-text rules every caption here follows (docs/recognition.md#captions): at most
// 42 characters a line and 2 lines a cue, at most ~7 s on screen, cut at a sentence or clause
// end where there is one and never inside a word. Pure: the recognizer's grouping
// (src/engines/asr/group-words.ts) and the published captions (src/publish/caption-layout.ts)
// apply the same rules.

export const MAX_LINE_CHARS = 42;
export const MAX_CUE_LINES = 2;
/** The most text one cue can hold: two full lines. */
export const MAX_CUE_CHARS = MAX_LINE_CHARS * MAX_CUE_LINES;
/** Longer than this and a viewer is reading something already said. */
export const MAX_CUE_SECONDS = 7;

/**
 * The text as the lines of one cue: itself when it fits one line, else the two lines of the most
 * even break between words with both at most MAX_LINE_CHARS (a reader's eye jumps less), or null
 * when no such break exists: the text needs more than one cue. Whitespace runs count as one space.
 */
export function captionLines(text: string): string[] | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const whole = words.join(' ');
  if (whole.length <= MAX_LINE_CHARS) return [whole];
  let best: [string, string] | null = null;
  for (let i = 1; i < words.length; i++) {
    const pair: [string, string] = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    if (pair[0].length > MAX_LINE_CHARS || pair[1].length > MAX_LINE_CHARS) continue;
    if (!best || Math.max(...pair.map((l) => l.length)) < Math.max(...best.map((l) => l.length))) best = pair;
  }
  return best;
}

/** A single word too long for a line still gets a cue of its own: a cue never ends mid-word. */
export const fitsOneCue = (text: string, seconds: number): boolean => seconds <= MAX_CUE_SECONDS + 1e-9 && captionLines(text) !== null;

/** Ends a sentence (.?!…, a closing quote or bracket after one allowed). */
const SENTENCE_END = /[.?!…]["'”’)\]]*$/;
/** Ends a clause (,;:– and the like). */
const CLAUSE_END = /[,;:–—]["'”’)\]]*$/;

/** How good a place the end of `word` is to cut a cue: 2 after a sentence, 1 after a clause, else 0. */
export function cutStrength(word: string): number {
  if (SENTENCE_END.test(word)) return 2;
  if (CLAUSE_END.test(word)) return 1;
  return 0;
}

export interface CaptionUnit {
  /** One word, as it is shown. */
  text: string;
  startSeconds: number;
  endSeconds: number;
  /** How good a place the end of this unit is to cut (higher is better: a sentence or clause end, a pause). */
  cutAfter: number;
}

const joined = (units: readonly CaptionUnit[]) => units.map((u) => u.text).join(' ');
const span = (units: readonly CaptionUnit[]) => units[units.length - 1]!.endSeconds - units[0]!.startSeconds;
const fits = (units: readonly CaptionUnit[]) => units.length === 1 || fitsOneCue(joined(units), span(units));

/**
 * Words cut into runs that each fit one cue, only ever between words. Where a run does not fit,
 * it is cut at the best place (`cutAfter`: a sentence or clause end before any other word);
 * among equally good places, where both sides fit if it can be, and nearest the middle by
 * characters; each side is cut again until it fits.
 */
export function cutIntoCues(units: readonly CaptionUnit[]): CaptionUnit[][] {
  if (units.length === 0) return [];
  if (fits(units)) return [[...units]];
  const total = joined(units).length;
  let best: { at: number; bothFit: boolean; strength: number; imbalance: number } | null = null;
  let leftChars = -1;
  for (let at = 1; at < units.length; at++) {
    leftChars += units[at - 1]!.text.length + 1;
    const candidate = {
      at,
      bothFit: fits(units.slice(0, at)) && fits(units.slice(at)),
      strength: units[at - 1]!.cutAfter,
      imbalance: Math.abs(2 * leftChars - total),
    };
    if (!best || better(candidate, best)) best = candidate;
  }
  return [...cutIntoCues(units.slice(0, best!.at)), ...cutIntoCues(units.slice(best!.at))];
}

function better(a: { bothFit: boolean; strength: number; imbalance: number }, b: { bothFit: boolean; strength: number; imbalance: number }): boolean {
  if (a.strength !== b.strength) return a.strength > b.strength;
  if (a.bothFit !== b.bothFit) return a.bothFit;
  return a.imbalance < b.imbalance;
}
