import { END_TOLERANCE_SECONDS } from './transcript-cues';

// A preview of a range (docs/previews.md): the create's `range` names a stretch of the source in
// the whole source's seconds; once the source is measured, the project's source *is* that stretch,
// so every later time (segments, captions, the mix, the video) counts from the range's start.
// Pure, so the API's checks, the worker's cut and the CLI's `--range` agree.

export interface SourceRange {
  start_seconds: number;
  end_seconds: number;
}

/**
 * The shortest range accepted. A project bills whole seconds, at least one (billableSecondsFor),
 * so a shorter range would be charged for time it does not have; and no dubbable sentence fits
 * in less.
 */
export const MIN_RANGE_SECONDS = 1;

/** The longest source there is: one declaring more than 24 h is refused as invalid media. */
export const MAX_RANGE_END_SECONDS = 24 * 3600;

/** What is wrong with a range, naming its field, or null when it is fine. */
export function rangeProblem(range: SourceRange): { param: 'range.start_seconds' | 'range.end_seconds'; message: string } | null {
  const { start_seconds: start, end_seconds: end } = range;
  if (!Number.isFinite(start) || start < 0) return { param: 'range.start_seconds', message: 'range.start_seconds must be a number of seconds, 0 or more.' };
  if (!Number.isFinite(end) || end > MAX_RANGE_END_SECONDS) return { param: 'range.end_seconds', message: `range.end_seconds must be a number of seconds, at most ${MAX_RANGE_END_SECONDS}.` };
  if (end <= start) return { param: 'range.end_seconds', message: `range.end_seconds (${end}) must be after range.start_seconds (${start}).` };
  if (end - start < MIN_RANGE_SECONDS) {
    return {
      param: 'range.end_seconds',
      message: `The range lasts ${roundSeconds(end - start)} s; a preview lasts at least ${MIN_RANGE_SECONDS} s (a project is billed whole seconds, at least one).`,
    };
  }
  return null;
}

/** The range's seconds: what the project is quoted, held against its ceiling and charged for. */
export const rangeSeconds = (range: SourceRange): number => range.end_seconds - range.start_seconds;

/** The project's range from its two columns; null (both null) is the whole source. */
export function rangeOf(row: { range_start_seconds: number | null; range_end_seconds: number | null }): SourceRange | null {
  return row.range_start_seconds === null || row.range_end_seconds === null ? null : { start_seconds: row.range_start_seconds, end_seconds: row.range_end_seconds };
}

/**
 * Where the cut ends on a source of `durationSeconds`, or null when the range ends past it: an end
 * within END_TOLERANCE_SECONDS of the source's end (durations are measured in floats, and a
 * platform rounds the one it declares) is the source's end.
 */
export function rangeEndWithin(range: SourceRange, durationSeconds: number): number | null {
  if (range.end_seconds > durationSeconds + END_TOLERANCE_SECONDS) return null;
  const end = Math.min(range.end_seconds, durationSeconds);
  return end - range.start_seconds >= MIN_RANGE_SECONDS / 2 ? end : null;
}

/** Why a project whose range ends past its source's end failed (`invalid_range`), in words the customer can act on. */
export const rangePastEndMessage = (range: SourceRange, durationSeconds: number): string =>
  `The range ends at ${range.end_seconds} s, past the end of the source, which lasts ${durationSeconds.toFixed(2)} s. The credit hold was released; nothing was charged.`;

/** A timed cue of a script, in seconds. */
export interface TimedCue {
  start_seconds: number;
  end_seconds: number;
}

/** Shorter overlaps than this are rounding, not a piece of the cue. */
const MIN_OVERLAP_SECONDS = 0.001;

/**
 * A script written against the whole source (a supplied transcript or translation), as the range
 * hears it: only the cues overlapping the range, clipped to it, and moved so the range's start
 * is 0 (docs/previews.md#supplied-scripts). Empty when none overlaps.
 */
export function cuesInRange<C extends TimedCue>(cues: readonly C[], range: SourceRange): C[] {
  const length = rangeSeconds(range);
  const shift = (t: number) => roundSeconds(Math.min(length, Math.max(0, t - range.start_seconds)));
  return cues
    .filter((cue) => Math.min(cue.end_seconds, range.end_seconds) - Math.max(cue.start_seconds, range.start_seconds) >= MIN_OVERLAP_SECONDS)
    .map((cue) => ({ ...cue, start_seconds: shift(cue.start_seconds), end_seconds: shift(cue.end_seconds) }));
}

/** To the millisecond, as cue timestamps are written: no 6.999999999 from a subtraction. */
const roundSeconds = (t: number): number => Math.round(t * 1000) / 1000;

/** How a preview's files are named: "<name> (preview 5-12s)" (docs/previews.md#what-shows-it-is-a-preview). */
export function previewName(name: string, range: SourceRange | null): string {
  return range ? `${name} (preview ${roundSeconds(range.start_seconds)}-${roundSeconds(range.end_seconds)}s)` : name;
}

/** `90`, `1:30`, `1:02:03.5`: seconds, or minutes and seconds, or hours too; NaN when it is none of these. */
function clockSeconds(text: string): number {
  if (!/^\d+(\.\d+)?$|^\d+(:[0-5]?\d){1,2}(\.\d+)?$/.test(text)) return NaN;
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * The CLI's `--range 30-90` or `--range 1:00-1:30` (start-end), as a range, or null when it is not
 * written so. Its order and length are checked by rangeProblem.
 */
export function parseRangeText(text: string): SourceRange | null {
  const match = /^\s*([\d:.]+)\s*-\s*([\d:.]+)\s*$/.exec(text);
  if (!match) return null;
  const [start, end] = [clockSeconds(match[1]!), clockSeconds(match[2]!)];
  return Number.isNaN(start) || Number.isNaN(end) ? null : { start_seconds: start, end_seconds: end };
}
