import { framesIn, HOP_SECONDS, type FrameTrack } from './frame-features';
import type { SpeakerProfile, SpeakerTurn } from './speaker-diarizer';

// What the pipeline needs to give each speaker a voice of their own: how high they speak (the
// median F0 of their voiced frames, robust to a few octave errors) and how long they speak.
// docs/speakers.md#finding-speakers

/** Less voiced speech than this and the median pitch is not trusted (null). */
export const MIN_VOICED_SECONDS = 0.5;

/** One profile per speaker in `turns`, by speaker number. */
export function speakerProfiles(track: FrameTrack, turns: readonly SpeakerTurn[]): SpeakerProfile[] {
  const bySpeaker = new Map<number, { pitches: number[]; seconds: number }>();
  for (const turn of turns) {
    const entry = bySpeaker.get(turn.speaker) ?? { pitches: [], seconds: 0 };
    bySpeaker.set(turn.speaker, entry);
    entry.seconds += Math.max(0, turn.endSeconds - turn.startSeconds);
    const [first, end] = framesIn(track, turn);
    for (let i = first; i < end; i++) entry.pitches.push(track.pitchHz[i]!);
  }
  return [...bySpeaker.entries()]
    .sort(([a], [b]) => a - b)
    .map(([speaker, { pitches, seconds }]) => ({
      speaker,
      medianPitchHz: pitches.length * HOP_SECONDS >= MIN_VOICED_SECONDS ? Math.round(median(pitches) * 10) / 10 : null,
      speechSeconds: Math.round(seconds * 1000) / 1000,
    }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
