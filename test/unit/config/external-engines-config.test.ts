import { ConfigError, loadConfig } from '../../../src/config';

const base = { NODE_ENV: 'test' };

it('turns no external engine on without its URL', () => {
  expect(loadConfig(base).engines).toEqual({ asr: null, mt: null, tts: null });
});

it("reads each engine's settings, with the defaults", () => {
  const { engines } = loadConfig({
    ...base,
    ASR_ENGINE_URL: 'http://whisper:8000/v1/',
    ASR_ENGINE_LOCALES: 'en_us, de_de,en_us',
    ASR_ENGINE_API_KEY: 'sk-asr',
    MT_ENGINE_URL: 'http://libretranslate:5000',
    TTS_ENGINE_URL: 'http://kokoro:8880/v1',
    TTS_ENGINE_VOICES: 'de_de=af_heart,es_es=ef_dora',
    ENGINE_REQUEST_ATTEMPTS: '2',
  });
  expect(engines.asr).toEqual({
    url: 'http://whisper:8000/v1',
    model: 'whisper-1',
    apiKey: 'sk-asr',
    locales: ['en_us', 'de_de'],
    maxUploadBytes: 25 * 1024 * 1024,
    timeoutMs: 300_000,
    maxAttempts: 2,
  });
  expect(engines.mt).toEqual({ url: 'http://libretranslate:5000', apiKey: null, timeoutMs: 300_000, maxAttempts: 2 });
  expect(engines.tts).toEqual({ url: 'http://kokoro:8880/v1', model: 'tts-1', apiKey: null, voices: { de_de: ['af_heart'], es_es: ['ef_dora'] }, timeoutMs: 300_000, maxAttempts: 2 });
});

it('reads several voices for a locale that is repeated, the first its default, in order and each once', () => {
  const { engines } = loadConfig({ ...base, TTS_ENGINE_URL: 'http://kokoro:8880/v1', TTS_ENGINE_VOICES: 'es_es=ef_dora,it_it=if_sara,es_es=em_alex,es_es=ef_dora,es_es=em_santa' });
  expect(engines.tts?.voices).toEqual({ es_es: ['ef_dora', 'em_alex', 'em_santa'], it_it: ['if_sara'] });
});

it('reports every problem at once, naming keys without echoing them', () => {
  let problems: string[] = [];
  try {
    loadConfig({
      ...base,
      ASR_ENGINE_URL: 'whisper:8000',
      TTS_ENGINE_URL: 'http://tts/v1',
      TTS_ENGINE_VOICES: 'german=af heart',
      ASR_ENGINE_MAX_UPLOAD_BYTES: '1000',
      MT_ENGINE_URL: 'http://mt',
      MT_ENGINE_API_KEY: 'secret-mt-key',
    });
  } catch (err) {
    problems = (err as ConfigError).problems;
  }
  expect(problems).toEqual([
    'ASR_ENGINE_URL must be a URL using http: or https: (got "whisper:8000")',
    'TTS_ENGINE_VOICES has invalid entries: german=af heart',
    'TTS_ENGINE_VOICES must name a voice for each locale TTS_ENGINE_URL speaks (e.g. de_de=af_heart)',
    'ASR_ENGINE_MAX_UPLOAD_BYTES must be 0 (no limit) or at least 1048576 (1 MiB)',
  ]);
  expect(() => loadConfig({ ...base, ASR_ENGINE_URL: 'http://asr/v1' })).toThrow('ASR_ENGINE_LOCALES must name the source locales ASR_ENGINE_URL recognizes');
});
