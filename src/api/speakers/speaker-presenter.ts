import type { SpeakerSummary } from '../../db/speakers';

// The public shape of a speaker (docs/speakers.md): GET, PATCH and merge answer with it.

export function presentSpeaker(speaker: SpeakerSummary) {
  return {
    id: speaker.id,
    label: speaker.label,
    position: speaker.position,
    median_pitch_hz: speaker.median_pitch_hz === null ? null : Math.round(speaker.median_pitch_hz * 10) / 10,
    segments: speaker.segments,
    speech_seconds: Math.round(speaker.speech_seconds * 1000) / 1000,
    voices: Object.fromEntries(speaker.voices.map((v) => [v.locale, { voice: v.voice, chosen_by: v.chosen_by, variant: v.variant }])),
  };
}
