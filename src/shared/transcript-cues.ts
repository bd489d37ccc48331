import { formatTimestamp } from './caption-timestamps';
import { normalizeSpeakerLabel, speakerLabelProblem } from './speaker-labels';

// What a reviewer may submit as a verified transcript. Pure: the console checks a file with it
// before sending anything, and the review workflow's update validator checks it again, so an
// invalid transcript is refused before it reaches the workflow's history or the database.

export interface ReviewCue {
  startSeconds: number;
  endSeconds: number;
  text: string;
  /** Who says it: the label as the file names it (docs/editing.md#speakers-in-a-script); none when the file names nobody. */
  speaker?: string;
}

export const MAX_REVIEW_CUES = 10_000;
export const MAX_CUE_TEXT = 2_000;
/** Media durations are measured in floats; a cue ending within this of the end is inside it. */
export const END_TOLERANCE_SECONDS = 0.05;

/** A cue as messages name it: `cue 3 (00:00:07.000 → 00:00:06.500)`, 1-based. */
export const cueLabel = (cue: ReviewCue, index: number): string => {
  const time = (t: number) => (Number.isFinite(t) && t >= 0 ? formatTimestamp(t, '.') : String(t));
  return `cue ${index + 1} (${time(cue.startSeconds)} → ${time(cue.endSeconds)})`;
};

/**
 * The first problem with a transcript, naming the cue (1-based, with its timing), or null when
 * it is fine: at least one cue; each with text, starting at or after 0, ending after it starts
 * and within the source's duration (when it is known: null before the source is measured);
 * each starting no earlier than the previous one ends; a speaker, when it has one, named in at
 * most MAX_SPEAKER_LABEL characters.
 */
export function findCueProblem(cues: readonly ReviewCue[], durationSeconds: number | null): string | null {
  if (!Array.isArray(cues) || cues.length === 0) return 'the transcript has no cues';
  if (cues.length > MAX_REVIEW_CUES) return `the transcript has ${cues.length} cues; at most ${MAX_REVIEW_CUES} are accepted`;
  for (const [i, cue] of cues.entries()) {
    const name = cueLabel(cue, i);
    if (typeof cue.text !== 'string' || cue.text.trim() === '') return `${name} has no text`;
    if (cue.text.length > MAX_CUE_TEXT) return `${name} has ${cue.text.length} characters; at most ${MAX_CUE_TEXT} are accepted`;
    if (cue.text.includes('\u0000')) return `${name} contains a NUL character`;
    if (cue.speaker !== undefined) {
      const problem = typeof cue.speaker === 'string' ? speakerLabelProblem(normalizeSpeakerLabel(cue.speaker)) : 'is not a string';
      if (problem) return `${name} names a speaker that ${problem}`;
    }
    if (!Number.isFinite(cue.startSeconds) || !Number.isFinite(cue.endSeconds) || cue.startSeconds < 0) return `${name} has an invalid time`;
    if (cue.endSeconds <= cue.startSeconds) return `${name} ends before it starts`;
    if (durationSeconds !== null && cue.endSeconds > durationSeconds + END_TOLERANCE_SECONDS) return `${name} ends after the source, which lasts ${formatTimestamp(durationSeconds, '.')}`;
    const previous = cues[i - 1];
    if (previous && cue.startSeconds < previous.endSeconds) return `${name} starts before cue ${i} ends (${formatTimestamp(previous.endSeconds, '.')}); cues must be in order and must not overlap`;
  }
  return null;
}
