import type { SuppliedCue } from '../transcripts/read-transcript-input';
import { cuesInRange, rangeProblem, type SourceRange } from '../../shared/source-range';
import { ApiError } from '../api-error';

// A create's `range` (docs/previews.md), checked before anything is written: a bad one is a 400
// naming `range.start_seconds` or `range.end_seconds`.

/** The create's range, checked; null when it asks for the whole source. */
export function readRange(range: SourceRange | undefined): SourceRange | null {
  if (!range) return null;
  const problem = rangeProblem(range);
  if (problem) throw ApiError.invalid('invalid_parameter', problem.message, problem.param);
  return { start_seconds: range.start_seconds, end_seconds: range.end_seconds };
}

/**
 * A supplied script (the transcript, or one language's lines) is timed against the whole source:
 * a preview keeps the cues that overlap its range, clipped to it and counted from its start
 * (docs/previews.md#supplied-scripts). None left: 400 `invalid_transcript` naming `param`.
 */
export function scriptInRange(cues: SuppliedCue[], range: SourceRange | null, param: string): SuppliedCue[] {
  if (!range) return cues;
  const kept = cuesInRange(cues, range);
  if (kept.length === 0) {
    throw ApiError.invalid(
      'invalid_transcript',
      `${param} has no cue within the range ${range.start_seconds}–${range.end_seconds} s: a preview is dubbed from the cues that overlap its range (the script's times are the whole source's).`,
      param,
    );
  }
  return kept;
}
