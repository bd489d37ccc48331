import { DEFAULT_MAX_TEMPO } from './line-placement';
import { cueLabel, type ReviewCue } from './transcript-cues';

// How much text a cue's time can carry (docs/editing.md#how-much-text-a-cue-can-carry). Text is
// translated and spoken per segment but billed by the seconds segments last, so text that its
// time cannot carry is work nobody pays for: 450 cues of 1 ms with 2,000 characters each bill one
// second and would have the engines translate and speak ~900,000 characters. Pure, so every
// place customer text with timing comes in judges it alike: create's transcript and
// translations, PUT …/transcript, both segment PATCHes and a reviewer's submission.

/**
 * A brisk speaking rate, in characters (spaces and punctuation included). Subtitle guidelines
 * let a viewer read 17–20 a second; natural English speech is ~14–16.
 */
export const SPEAKING_CHARS_PER_SECOND = 20;

/** The most text a second of a cue carries: brisk speech played at the renderer's tempo cap (1.3×), 26. */
export const MAX_CHARS_PER_SECOND = SPEAKING_CHARS_PER_SECOND * DEFAULT_MAX_TEMPO;

/** Every cue may carry this much more: a word or two and their punctuation ("Yes, of course.") fit however short it is. */
export const SHORT_CUE_SLACK_CHARS = 15;

/**
 * The shortest cue a person may time (a short word). Shorter cues would add segments, each
 * translated and spoken, without adding seconds to bill. Timing the machine set (a recognized
 * segment, which can be shorter) is not judged by it; its text is allowed this much time.
 */
export const MIN_CUE_SECONDS = 0.2;

/** Timings are milliseconds in every transcript format; rounding to them keeps float noise out of the limits. */
const milliseconds = (seconds: number) => Math.round(seconds * 1000);

/** The most characters a cue lasting `seconds` may have: MAX_CHARS_PER_SECOND for at least MIN_CUE_SECONDS, plus the slack. */
export function maxCueChars(seconds: number): number {
  const ms = Math.max(milliseconds(seconds), milliseconds(MIN_CUE_SECONDS));
  // Integer arithmetic on milliseconds: 26 × ms is exact, so the boundary is too.
  return Math.floor((MAX_CHARS_PER_SECOND * ms) / 1000) + SHORT_CUE_SLACK_CHARS;
}

/** A cue's characters as spoken: the trimmed text, in code points (an emoji is one). */
export const cueChars = (text: string): number => [...text.trim()].length;

export interface TimedText {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export interface TextBoundProblem {
  /** Which bound: the cue is shorter than MIN_CUE_SECONDS, or has more characters than its time carries. */
  rule: 'duration' | 'characters';
  /** A phrase to follow the cue's or field's name: `lasts 0.001 s; …`, `has 2000 characters in …`. */
  problem: string;
}

/**
 * Why a cue's text does not fit its time, or null.
 * `personTimed`: a person set the timing, so it must last at least MIN_CUE_SECONDS.
 */
export function cueTextProblem(cue: TimedText, options: { personTimed: boolean }): TextBoundProblem | null {
  const ms = milliseconds(cue.endSeconds - cue.startSeconds);
  if (options.personTimed && ms < milliseconds(MIN_CUE_SECONDS)) {
    return { rule: 'duration', problem: `lasts ${seconds(ms)}; a cue must last at least ${MIN_CUE_SECONDS} s` };
  }
  const chars = cueChars(cue.text);
  const max = maxCueChars(ms / 1000);
  if (chars <= max) return null;
  return {
    rule: 'characters',
    problem: `has ${chars} characters in ${seconds(ms)}; at most ${max} fit (${MAX_CHARS_PER_SECOND} characters a second, brisk speech at the ${DEFAULT_MAX_TEMPO}× tempo cap, plus ${SHORT_CUE_SLACK_CHARS})`,
  };
}

const sameCueKey = (cue: TimedText) => `${milliseconds(cue.startSeconds)}|${milliseconds(cue.endSeconds)}|${cue.text.trim()}`;

/**
 * The first cue of a transcript whose text does not fit its time, named as findCueProblem names
 * cues, or null. A cue that repeats one of `known` (the transcript's segments now: same timing to
 * the millisecond, same text) is not judged again: sending back a transcript as GET gave it,
 * with the machine's short segments, is not new text.
 */
export function findTextBoundProblem(cues: readonly ReviewCue[], known: readonly TimedText[] = []): string | null {
  const unchanged = new Set(known.map(sameCueKey));
  for (const [i, cue] of cues.entries()) {
    if (unchanged.has(sameCueKey(cue))) continue;
    const found = cueTextProblem(cue, { personTimed: true });
    if (found) return `${cueLabel(cue, i)} ${found.problem}`;
  }
  return null;
}
