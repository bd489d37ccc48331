// A voice's id names its engine and the engine's own name for it, so the bundled synthesizer
// (bundled-synthesizer.ts) and the external router (external/routed-engines.ts) send each clip to
// the engine that speaks it without a lookup: `espeak:es+f3`, `festival:cmu_us_slt_arctic_hts`,
// `openai-tts:af_heart`. A bare name with no prefix is an espeak-ng voice: what workers published,
// and the render used, before voices could be chosen (docs/voices.md#ids).

import { OPENAI_TTS_VOICE_PREFIX } from '../external/external-names';

export const ESPEAK_VOICE_PREFIX = 'espeak:';
export const FESTIVAL_VOICE_PREFIX = 'festival:';

/** The engine names a voice list shows. */
export type VoiceEngine = 'espeak-ng' | 'festival' | 'openai-tts';

/** How natural a voice sounds, least first: espeak-ng's formant synthesis, Festival's diphone and HTS voices, a neural external engine. */
export const VOICE_QUALITIES = ['formant', 'diphone', 'hts', 'neural'] as const;
export type VoiceQuality = (typeof VOICE_QUALITIES)[number];

export const espeakVoiceId = (name: string) => `${ESPEAK_VOICE_PREFIX}${name}`;
export const festivalVoiceId = (name: string) => `${FESTIVAL_VOICE_PREFIX}${name}`;

/** The engine of a voice id and the engine's own name for the voice. */
export function parseVoiceId(id: string): { engine: VoiceEngine; name: string } {
  if (id.startsWith(FESTIVAL_VOICE_PREFIX)) return { engine: 'festival', name: id.slice(FESTIVAL_VOICE_PREFIX.length) };
  if (id.startsWith(OPENAI_TTS_VOICE_PREFIX)) return { engine: 'openai-tts', name: id.slice(OPENAI_TTS_VOICE_PREFIX.length) };
  if (id.startsWith(ESPEAK_VOICE_PREFIX)) return { engine: 'espeak-ng', name: id.slice(ESPEAK_VOICE_PREFIX.length) };
  return { engine: 'espeak-ng', name: id };
}

/** Higher is more natural; the default voice of a locale is its highest. */
export const qualityRank = (quality: VoiceQuality) => VOICE_QUALITIES.indexOf(quality);
