import type { Db } from '../db/create-db';
import { listSourceSegments, type Cue } from '../db/source-segments';
import { listSpeakers, setSpeakerPitch } from '../db/speakers';
import type { Engines, RecognizedSegment } from '../engines';
import { defaultSpeakerLabel } from '../shared/speaker-labels';

// Who speaks when, after the words are known (docs/speakers.md#finding-speakers). A recognized
// transcript is split into speaker turns by the diarizer (a segment holding two voices is cut
// at the change, so a line never carries two); a written one (supplied, verified) names its own
// speakers, whose pitch is measured here for choosing their voices.

export interface SpokenTranscript {
  cues: Cue[];
  /** Median pitch by speaker label, for choosing each speaker's voice. */
  pitch: Map<string, number | null>;
}

const labelOf = (speaker: number) => defaultSpeakerLabel(speaker + 1);

/** The recognized segments as cues with their speakers. `numSpeakers`: the create's (0 = find out). */
export async function diarizedCues(engines: Engines, wav16k: string, segments: readonly RecognizedSegment[], numSpeakers: number, onTick: () => void): Promise<SpokenTranscript> {
  const diarization = await engines.diarizer.diarize({ wav16k, segments: [...segments], numSpeakers }, { onTick });
  return {
    cues: diarization.segments.map((s) => ({ start_seconds: s.startSeconds, end_seconds: s.endSeconds, text: s.text, speaker: labelOf(s.speaker) })),
    pitch: new Map(diarization.speakers.map((p) => [labelOf(p.speaker), p.medianPitchHz])),
  };
}

/** Measures the pitch of a written transcript's speakers from their segments, and records it. */
export async function profileWrittenSpeakers(db: Db, engines: Engines, projectId: string, wav16k: string, onTick: () => void): Promise<void> {
  const [speakers, segments] = await Promise.all([listSpeakers(db, projectId), listSourceSegments(db, projectId)]);
  if (!speakers.length) return;
  const index = new Map(speakers.map((s, i) => [s.id, i]));
  const turns = segments.filter((s) => s.speaker_id !== null && index.has(s.speaker_id)).map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, speaker: index.get(s.speaker_id!)! }));
  const profiles = await engines.diarizer.profile(wav16k, turns, { onTick });
  await db.transaction().execute(async (trx) => {
    for (const profile of profiles) {
      const speaker = speakers[profile.speaker];
      if (speaker) await setSpeakerPitch(trx, speaker.id, profile.medianPitchHz);
    }
  });
}
