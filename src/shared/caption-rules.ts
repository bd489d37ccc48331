// How a cue's text is cut and broken into lines (docs/captions.md#how-cues-are-cut): at most
// 42 characters a line and 2 lines a cue, at most 7 s on screen (the `standard` preset's shape,
// src/captions/timed-text-rules.ts), cut at a sentence or clause end where there is one and never
// inside a word. Pure: the recognizer's grouping (src/engines/asr/group-words.ts) and the
// published captions (src/publish/caption-layout.ts) apply the same rules; the captions take the
// project's preset's shape.

export const MAX_LINE_CHARS = 42;
export const MAX_CUE_LINES = 2;
/** The most text one cue can hold: two full lines. */
export const MAX_CUE_CHARS = MAX_LINE_CHARS * MAX_CUE_LINES;
/** Longer than this and a viewer is reading something already said. */
export const MAX_CUE_SECONDS = 7;

/** The shape of a cue: what a preset of timed-text rules says of its lines and its time on screen. */
export interface CueShape {
  maxLineChars: number;
  /** One or two lines: a caption is never taller. */
  maxLines: 1 | 2;
  maxDurationSeconds: number;
}

/** The recognizer's segments and a project without a preset: the Netflix English template's shape. */
export const STANDARD_CUE_SHAPE: CueShape = { maxLineChars: MAX_LINE_CHARS, maxLines: MAX_CUE_LINES, maxDurationSeconds: MAX_CUE_SECONDS };

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Characters as a reader sees them (docs/captions.md#counting-characters): user-perceived
 * characters (grapheme clusters), so `é` written as e + a combining accent, or an emoji with a
 * modifier, is one. Spaces and punctuation count. Line lengths and reading speed both count so.
 */
export function captionChars(text: string): number {
  // Plain ASCII is one character per code unit: no segmenter needed for most captions.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

/**
 * The text as the lines of one cue: itself when it fits one line, else (two lines allowed) the
 * two lines of the most even break between words with both at most `maxLineChars` (a reader's
 * eye jumps less), or null when no such break exists: the text needs more than one cue.
 * Whitespace runs count as one space.
 */
export function captionLines(text: string, shape: CueShape = STANDARD_CUE_SHAPE): string[] | null {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const at = lineBreak(lineChars(words), 0, words.length, shape);
  if (at === null) return null;
  return at < 0 ? [words.join(' ')] : [words.slice(0, at).join(' '), words.slice(at).join(' ')];
}

/**
 * Where words [from, to) break into a cue's lines, by their `chars`: -1 when they fit one line,
 * else the first word of the second line (the most even break), or null when no break fits.
 */
function lineBreak(chars: (from: number, to: number) => number, from: number, to: number, shape: CueShape): number | null {
  if (chars(from, to) <= shape.maxLineChars) return -1;
  if (shape.maxLines < 2) return null;
  let best: { at: number; longest: number } | null = null;
  for (let at = from + 1; at < to; at++) {
    const longest = Math.max(chars(from, at), chars(at, to));
    if (longest > shape.maxLineChars) continue;
    if (!best || longest < best.longest) best = { at, longest };
  }
  return best?.at ?? null;
}

/** A word starting so joins the space before it into one character (a combining mark, a joiner, a skin tone). */
const JOINS_BACKWARD = /^[\p{M}\u200c\u200d\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;

/**
 * captionChars of words[from..to) joined by single spaces. Counted per word once and summed (a
 * space is a character of its own), so the break search above costs a sum per break, not a count
 * of the whole text; counted whole where a word would join the space before it.
 */
function lineChars(words: readonly string[]): (from: number, to: number) => number {
  if (words.some((w) => JOINS_BACKWARD.test(w))) return (from, to) => captionChars(words.slice(from, to).join(' '));
  const before = [0];
  for (const word of words) before.push(before[before.length - 1]! + captionChars(word));
  return (from, to) => (to > from ? before[to]! - before[from]! + (to - from - 1) : 0);
}

/** A single word too long for a line still gets a cue of its own: a cue never ends mid-word. */
export const fitsOneCue = (text: string, seconds: number, shape: CueShape = STANDARD_CUE_SHAPE): boolean => seconds <= shape.maxDurationSeconds + 1e-9 && captionLines(text, shape) !== null;

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

/**
 * Words cut into runs that each fit one cue, only ever between words. Where a run does not fit,
 * it is cut at the best place (`cutAfter`: a sentence or clause end before any other word);
 * among equally good places, where both sides fit if it can be, and nearest the middle by
 * characters; each side is cut again until it fits. The words' characters are counted once.
 */
export function cutIntoCues(units: readonly CaptionUnit[], shape: CueShape = STANDARD_CUE_SHAPE): CaptionUnit[][] {
  const chars = lineChars(units.map((u) => u.text));
  const fits = (from: number, to: number) =>
    to - from === 1 || (units[to - 1]!.endSeconds - units[from]!.startSeconds <= shape.maxDurationSeconds + 1e-9 && lineBreak(chars, from, to, shape) !== null);
  const cut = (from: number, to: number): CaptionUnit[][] => {
    if (fits(from, to)) return [units.slice(from, to)];
    const total = joined(units.slice(from, to)).length;
    let best: { at: number; bothFit: boolean; strength: number; imbalance: number } | null = null;
    let leftChars = -1;
    for (let at = from + 1; at < to; at++) {
      leftChars += units[at - 1]!.text.length + 1;
      const candidate = { at, bothFit: fits(from, at) && fits(at, to), strength: units[at - 1]!.cutAfter, imbalance: Math.abs(2 * leftChars - total) };
      if (!best || better(candidate, best)) best = candidate;
    }
    return [...cut(from, best!.at), ...cut(best!.at, to)];
  };
  return units.length === 0 ? [] : cut(0, units.length);
}

function better(a: { bothFit: boolean; strength: number; imbalance: number }, b: { bothFit: boolean; strength: number; imbalance: number }): boolean {
  if (a.strength !== b.strength) return a.strength > b.strength;
  if (a.bothFit !== b.bothFit) return a.bothFit;
  return a.imbalance < b.imbalance;
}
