import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseVoices } from '../../../../src/api/projects/choose-voices';
import { loadConfig } from '../../../../src/config';
import { createLocalEngines, type Engines } from '../../../../src/engines';
import { detectCapabilities, type EngineCapabilities } from '../../../../src/engines/capabilities';
import { discoverExternalOffer } from '../../../../src/engines/external/discover-external-engines';
import { createExternalEngines, routeToExternalEngines } from '../../../../src/engines/external/routed-engines';
import { chooseSpeakerVoices } from '../../../../src/shared/speaker-voices';
import { startFakeSpeechServer, type FakeSpeechServer } from '../../../fakes/openai-speech-server';

// TTS_ENGINE_VOICES naming a locale twice (docs/engines.md#speech-synthesis): both voices are
// offered, the first the locale's default, each speaker of the language gets one of them
// (docs/speakers.md#voices), and each is spoken by the external engine with its own name. A
// voice listed for another locale is still refused for this one.

let dir: string;
let server: FakeSpeechServer;
let capabilities: EngineCapabilities;
let engines: Engines;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'external-voices-'));
  server = await startFakeSpeechServer(['ef_dora', 'em_alex', 'if_sara']);
  const settings = loadConfig({ NODE_ENV: 'test', TTS_ENGINE_URL: server.url, TTS_ENGINE_MODEL: 'kokoro', TTS_ENGINE_VOICES: 'es_es=ef_dora,es_es=em_alex,it_it=if_sara' }).engines;
  const external = createExternalEngines(settings, { sleep: async () => undefined });
  const { offer } = await discoverExternalOffer(external, settings);
  capabilities = await detectCapabilities({ locales: ['en_us', 'es_es', 'it_it'] }, offer);
  engines = routeToExternalEngines(createLocalEngines(), external);
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const locale = (code: string) => capabilities.locales.find((l) => l.locale === code)!;

it('offers every listed voice of a locale, best first in the listed order, the first its default', () => {
  expect(locale('es_es').voice).toBe('openai-tts:ef_dora');
  const external = (locale('es_es').voices ?? []).filter((v) => v.engine === 'openai-tts');
  expect(external).toEqual([
    expect.objectContaining({ id: 'openai-tts:ef_dora', locale: 'es_es', name: 'ef_dora', gender: null, quality: 'neural' }),
    expect.objectContaining({ id: 'openai-tts:em_alex', locale: 'es_es', name: 'em_alex', gender: null, quality: 'neural' }),
  ]);
  expect(locale('es_es').voices!.slice(0, 2)).toEqual(external);
  // Two voices, two sample keys: each has its own sample.
  expect(external[0]!.sampleKey).not.toBe(external[1]!.sampleKey);
  expect(locale('it_it').voice).toBe('openai-tts:if_sara');
  expect((locale('it_it').voices ?? []).filter((v) => v.engine === 'openai-tts').map((v) => v.id)).toEqual(['openai-tts:if_sara']);
});

it('gives two speakers of the language the two external voices', () => {
  const chosen = chooseSpeakerVoices(
    [
      { id: 'ana', medianPitchHz: null },
      { id: 'ben', medianPitchHz: null },
    ],
    [],
    locale('es_es').voices ?? [],
    'openai-tts:ef_dora',
  );
  expect(chosen.map((c) => c.voice)).toEqual(['openai-tts:ef_dora', 'openai-tts:em_alex']);
});

it('speaks each listed voice with its own name', async () => {
  const before = server.calls.length;
  for (const [i, voice] of ['openai-tts:ef_dora', 'openai-tts:em_alex'].entries()) {
    const result = await engines.tts.synthesize('Buenos días a todos.', voice, path.join(dir, `${i}.wav`));
    expect(result.durationSeconds).toBeGreaterThan(1);
  }
  await engines.tts.synthesizeBatch(['Hola.', 'Adiós.'], 'openai-tts:em_alex', [path.join(dir, 'a.wav'), path.join(dir, 'b.wav')]);
  const calls = server.calls.slice(before);
  expect(calls.map((c) => c.status)).toEqual([200, 200, 200, 200]);
  expect(calls.map((c) => c.body?.voice)).toEqual(['ef_dora', 'em_alex', 'em_alex', 'em_alex']);
});

it('accepts either listed voice for the locale, and refuses one listed for another locale, as before', () => {
  expect(chooseVoices(capabilities, ['es_es'], { es_es: 'openai-tts:em_alex' }).languages).toEqual({ es_es: 'openai-tts:em_alex' });
  expect(chooseVoices(capabilities, ['es_es'], undefined).languages).toEqual({ es_es: 'openai-tts:ef_dora' });
  expect(() => chooseVoices(capabilities, ['es_es'], { es_es: 'openai-tts:if_sara' })).toThrow('Voice "openai-tts:if_sara" speaks it_it, not es_es');
  expect(() => chooseVoices(capabilities, ['es_es'], { es_es: 'openai-tts:am_adam' })).toThrow('is not offered by any live worker');
});
