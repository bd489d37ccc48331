// A voice's id names its engine and the engine's own name for it, so the bundled synthesizer
// (bundled-synthesizer.ts) and the external router (external/routed-engines.ts) send each clip to
// the engine that speaks it without a lookup: `espeak:es+f3`, `festival:cmu_us_slt_arctic_hts`,
// `openai-tts:af_heart`. A bare name with no prefix is an espeak-ng voice: what workers published,
// and the render used, before voices could be chosen (docs/voices.md#ids).

import type { VoiceEngine } from '../../shared/offered-voices';
import { OPENAI_TTS_VOICE_PREFIX } from '../external/external-names';

export const ESPEAK_VOICE_PREFIX = 'espeak:';
export const FESTIVAL_VOICE_PREFIX = 'festival:';

// The engine names and qualities a voice list shows are pure, in src/shared (the API lists voices).
export { VOICE_QUALITIES, qualityRank, type VoiceEngine, type VoiceQuality } from '../../shared/offered-voices';

export const espeakVoiceId = (name: string) => `${ESPEAK_VOICE_PREFIX}${name}`;
export const festivalVoiceId = (name: string) => `${FESTIVAL_VOICE_PREFIX}${name}`;

/** The engine of a voice id and the engine's own name for the voice. */
export function parseVoiceId(id: string): { engine: VoiceEngine; name: string } {
  if (id.startsWith(FESTIVAL_VOICE_PREFIX)) return { engine: 'festival', name: id.slice(FESTIVAL_VOICE_PREFIX.length) };
  if (id.startsWith(OPENAI_TTS_VOICE_PREFIX)) return { engine: 'openai-tts', name: id.slice(OPENAI_TTS_VOICE_PREFIX.length) };
  if (id.startsWith(ESPEAK_VOICE_PREFIX)) return { engine: 'espeak-ng', name: id.slice(ESPEAK_VOICE_PREFIX.length) };
  return { engine: 'espeak-ng', name: id };
}
