// Who speaks each cue of a transcript someone wrote (docs/speakers.md#speakers-in-files). Pure,
// so the API (checking a per-speaker voice map against a supplied file) and the database write
// read a file's speakers alike:
// - a cue that names its speaker (a WebVTT voice span, JSON `speaker`, an SRT `NAME:` prefix)
//   is theirs;
// - a cue that names none continues the previous cue's speaker: files often name the speaker
//   only where the turn changes; cues before the first named one belong to that first speaker;
// - a file that names nobody is spoken by one speaker (`fallback`).

import { defaultSpeakerLabel } from './speaker-labels';

/** The label of a project's only speaker until someone names them. */
export const DEFAULT_FIRST_SPEAKER = defaultSpeakerLabel(1);

export function cueSpeakerLabels(cues: readonly { speaker?: string | null }[], fallback: string): string[] {
  const first = cues.find((c) => c.speaker)?.speaker ?? fallback;
  let current = first;
  return cues.map((cue) => (current = cue.speaker || current));
}

/** The distinct labels in order of first appearance. */
export const distinctLabels = (labels: readonly string[]): string[] => [...new Set(labels)];
