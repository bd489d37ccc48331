import type { LanguageSegmentRow } from '../../db/language-segments';
import type { Cue, SourceSegment } from '../../db/source-segments';
import { formatTimestamp } from '../../shared/caption-timestamps';
import { cueTextProblem } from '../../shared/cue-text-bounds';
import { END_TOLERANCE_SECONDS } from '../../shared/transcript-cues';
import { ApiError } from '../api-error';
import type { EditSourceSegmentBody } from './transcripts.schema';

// One source segment's edit, judged by the rules every transcript keeps (docs/editing.md):
// text that is not blank, an end after the start, in order with its neighbours without
// overlapping them, inside the source once its duration is known, and no more text than its
// time carries (src/shared/cue-text-bounds.ts).

const at = (seconds: number) => formatTimestamp(seconds, '.');

/** What the segment becomes, or 400 naming the field that breaks a rule. */
export function applySegmentEdit(segment: SourceSegment, body: EditSourceSegmentBody, neighbours: { previous?: SourceSegment; next?: SourceSegment }, durationSeconds: number | null): Cue {
  if (body.text === undefined && body.start_seconds === undefined && body.end_seconds === undefined && body.speaker_id === undefined) {
    throw ApiError.invalid('missing_parameter', 'Send text, start_seconds, end_seconds or speaker_id: what the segment becomes.', 'text');
  }
  const edited: Cue = {
    text: body.text === undefined ? segment.text : body.text.trim(),
    start_seconds: body.start_seconds ?? segment.start_seconds,
    end_seconds: body.end_seconds ?? segment.end_seconds,
  };
  if (edited.text === '') throw ApiError.invalid('invalid_parameter', 'text must not be blank: a segment says something.', 'text');
  // Name the field the caller sent: a start moved past the end, or an end moved before the start.
  const timingParam = body.end_seconds !== undefined ? 'end_seconds' : 'start_seconds';
  if (edited.end_seconds <= edited.start_seconds) {
    throw ApiError.invalid('invalid_parameter', `The segment would end (${at(edited.end_seconds)}) before it starts (${at(edited.start_seconds)}).`, timingParam);
  }
  const { previous, next } = neighbours;
  if (previous && edited.start_seconds < previous.end_seconds) {
    throw ApiError.invalid(
      'invalid_parameter',
      `start_seconds (${at(edited.start_seconds)}) is before the previous segment ends (${at(previous.end_seconds)}); segments must be in order and must not overlap.`,
      'start_seconds',
    );
  }
  if (next && edited.end_seconds > next.start_seconds) {
    throw ApiError.invalid(
      'invalid_parameter',
      `end_seconds (${at(edited.end_seconds)}) is after the next segment starts (${at(next.start_seconds)}); segments must be in order and must not overlap.`,
      'end_seconds',
    );
  }
  if (durationSeconds !== null && edited.end_seconds > durationSeconds + END_TOLERANCE_SECONDS) {
    throw ApiError.invalid('invalid_parameter', `end_seconds (${at(edited.end_seconds)}) is after the source ends (${at(durationSeconds)}).`, 'end_seconds');
  }
  // An edit that changes nothing is not judged: it writes nothing. The shortest length applies
  // once a person sets the timing; until then it is the recognizer's, which may be shorter.
  if (segmentChanged(segment, edited)) {
    const bound = cueTextProblem({ startSeconds: edited.start_seconds, endSeconds: edited.end_seconds, text: edited.text }, { personTimed: timingChanged(segment, edited) });
    if (bound) throw ApiError.invalid('invalid_transcript', `The segment ${bound.problem}.`, bound.rule === 'characters' && body.text !== undefined ? 'text' : timingParam);
  }
  return edited;
}

/**
 * A timing edit moves a language's only line of the segment with it (markSourceSegmentLinesStale).
 * An `edited` one keeps a person's words, so they must fit the new timing too
 * (src/shared/cue-text-bounds.ts); the others go stale and are translated again from the segment.
 */
export function refuseEditedLinesOverBound(lines: readonly LanguageSegmentRow[], edited: Cue, body: EditSourceSegmentBody): void {
  const perLocale = new Map<string, number>();
  for (const line of lines) perLocale.set(line.locale, (perLocale.get(line.locale) ?? 0) + 1);
  for (const line of lines) {
    if (line.status !== 'edited' || perLocale.get(line.locale) !== 1) continue;
    const bound = cueTextProblem({ startSeconds: edited.start_seconds, endSeconds: edited.end_seconds, text: line.text }, { personTimed: false });
    if (bound)
      throw ApiError.invalid(
        'invalid_transcript',
        `The ${line.locale} line of this segment, edited and taking its new timing, ${bound.problem}.`,
        body.end_seconds !== undefined ? 'end_seconds' : 'start_seconds',
      );
  }
}

export const timingChanged = (segment: SourceSegment, edited: Cue) => segment.start_seconds !== edited.start_seconds || segment.end_seconds !== edited.end_seconds;
export const segmentChanged = (segment: SourceSegment, edited: Cue) => timingChanged(segment, edited) || segment.text !== edited.text;
