import type { ExternalEngineSettings, EngineHttpSettings } from '../engines/external/external-engine-settings';
import type { Reader } from './reader';

const LOCALE_PATTERN = /^[a-z]{2,3}_[a-z]{2}$/;

/**
 * The external engines (docs/engines.md). A URL turns one on; its other settings are checked only
 * then. Keys are never echoed in a problem, only named.
 */
export function readExternalEngines(read: Reader): ExternalEngineSettings {
  const http: EngineHttpSettings = {
    timeoutMs: read.int('ENGINE_REQUEST_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    maxAttempts: read.int('ENGINE_REQUEST_ATTEMPTS', 4, 1, 20),
  };
  const asrUrl = read.url('ASR_ENGINE_URL', null, ['http:', 'https:']);
  const mtUrl = read.url('MT_ENGINE_URL', null, ['http:', 'https:']);
  const ttsUrl = read.url('TTS_ENGINE_URL', null, ['http:', 'https:']);
  const asrLocales = read.list('ASR_ENGINE_LOCALES', LOCALE_PATTERN);
  if (asrUrl !== null && (asrLocales === null || asrLocales.length === 0)) read.problems.push('ASR_ENGINE_LOCALES must name the source locales ASR_ENGINE_URL recognizes (e.g. en_us,de_de)');
  const voices = readVoices(read);
  if (ttsUrl !== null && Object.keys(voices).length === 0) read.problems.push('TTS_ENGINE_VOICES must name a voice for each locale TTS_ENGINE_URL speaks (e.g. de_de=af_heart)');
  const maxUploadBytes = read.int('ASR_ENGINE_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 0, 10 * 1024 ** 3);
  if (maxUploadBytes > 0 && maxUploadBytes < 1024 * 1024) read.problems.push('ASR_ENGINE_MAX_UPLOAD_BYTES must be 0 (no limit) or at least 1048576 (1 MiB)');
  return {
    asr:
      asrUrl === null
        ? null
        : { ...http, url: asrUrl, model: read.string('ASR_ENGINE_MODEL', 'whisper-1'), apiKey: read.optional('ASR_ENGINE_API_KEY'), locales: [...new Set(asrLocales ?? [])], maxUploadBytes },
    mt: mtUrl === null ? null : { ...http, url: mtUrl, apiKey: read.optional('MT_ENGINE_API_KEY') },
    tts: ttsUrl === null ? null : { ...http, url: ttsUrl, model: read.string('TTS_ENGINE_MODEL', 'tts-1'), apiKey: read.optional('TTS_ENGINE_API_KEY'), voices },
  };
}

/**
 * TTS_ENGINE_VOICES: `<locale>=<voice>,…`; a voice name is letters, digits and `_.+-`. A locale
 * repeated lists several voices, so each speaker of a language can get one of its own
 * (docs/engines.md#speech-synthesis); the first is the locale's default. Order is kept, a voice
 * named twice for one locale counts once.
 */
function readVoices(read: Reader): Record<string, string[]> {
  const voices: Record<string, string[]> = {};
  for (const item of read.list('TTS_ENGINE_VOICES', /^[a-z]{2,3}_[a-z]{2}=[A-Za-z0-9_.+-]{1,100}$/) ?? []) {
    const [locale, voice] = item.split('=') as [string, string];
    const listed = (voices[locale] ??= []);
    if (!listed.includes(voice)) listed.push(voice);
  }
  return voices;
}
