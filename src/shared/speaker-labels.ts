// A speaker's label is the customer's name for them (docs/editing.md#speakers-in-a-script): `Ana`,
// `Dr. Ben`, or `Speaker 2` when nobody named them. Every transcript format reads its labels
// through normalizeSpeakerLabel, so `<v  Ana >`, `{"speaker": "Ana"}` and `ANA:` compare by the
// same rule.

/** Longer is not a name but a sentence (a SubRip line's `NAME:` prefix is held to 40). */
export const MAX_SPEAKER_LABEL = 60;

/** The label as it is stored and compared: trimmed, each run of whitespace one space. Empty when there is no name. */
export function normalizeSpeakerLabel(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ');
}

/** The label of the n-th speaker (1-based) nobody named: `Speaker 1`, `Speaker 2`, … */
export function defaultSpeakerLabel(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`speakers count from 1, got ${n}`);
  return `Speaker ${n}`;
}

/** Why a label read from a file cannot be a speaker's, or null when it can. */
export function speakerLabelProblem(label: string): string | null {
  if (label === '') return 'is empty';
  // Code points, as cue text is counted (src/shared/cue-text-bounds.ts).
  const length = [...label].length;
  if (length > MAX_SPEAKER_LABEL) return `has ${length} characters; at most ${MAX_SPEAKER_LABEL} are accepted`;
  return null;
}
