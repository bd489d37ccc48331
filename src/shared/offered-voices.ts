// The shape of a voice as workers publish it and the API lists it (GET /v1/dubbing/voices).
// Pure types and a ranking, here so the API and the fleet read voices without importing engine
// code; which voices a worker offers is worked out in src/engines/offered-voices.ts.

export type VoiceGender = 'female' | 'male';

/** The engine names a voice list shows. */
export type VoiceEngine = 'espeak-ng' | 'festival' | 'openai-tts';

/** How natural a voice sounds, least first: espeak-ng's formant synthesis, Festival's diphone and HTS voices, a neural external engine. */
export const VOICE_QUALITIES = ['formant', 'diphone', 'hts', 'neural'] as const;
export type VoiceQuality = (typeof VOICE_QUALITIES)[number];

/** Higher is more natural; the default voice of a locale is its highest. */
export const qualityRank = (quality: VoiceQuality) => VOICE_QUALITIES.indexOf(quality);

export interface OfferedVoice {
  /** What `voices` at create names and what the render passes to the synthesizer (src/engines/tts/voice-ids.ts). */
  id: string;
  locale: string;
  name: string;
  /** Null where the engine does not say (an external engine's voice). */
  gender: VoiceGender | null;
  engine: VoiceEngine;
  quality: VoiceQuality;
  /** Speaking rate against the voice's own (src/engines/tts/voice-catalog.ts); 1 for espeak-ng and external voices. */
  rate: number;
  /** The blob key of its sample (src/worker/voice-samples.ts renders it). */
  sampleKey: string;
}
