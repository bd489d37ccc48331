// How a worker's published capabilities name what an external engine does, so the routed engines
// (routed-engines.ts) send each step where it was routed: a translation route
// `libretranslate:<from>-<to>` (one step; LibreTranslate pivots itself where it must), and a voice
// `openai-tts:<voice>`. Neither can be mistaken for an apertium mode or an espeak-ng voice, whose
// names have no colon.

export const LIBRETRANSLATE_MODE_PREFIX = 'libretranslate:';
export const OPENAI_TTS_VOICE_PREFIX = 'openai-tts:';

export const libreTranslateMode = (from: string, to: string) => `${LIBRETRANSLATE_MODE_PREFIX}${from}-${to}`;
