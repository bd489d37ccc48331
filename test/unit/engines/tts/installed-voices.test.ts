import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createLocalEngines } from '../../../../src/engines';
import { detectCapabilities, type EngineCapabilities } from '../../../../src/engines/capabilities';
import type { OfferedVoice } from '../../../../src/engines/offered-voices';
import { sampleSentence } from '../../../../src/engines/tts/sample-sentences';
import { FESTIVAL_VOICES } from '../../../../src/engines/tts/voice-catalog';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// Every voice this machine's capabilities offer (the Festival voices of scripts/debian-packages.txt,
// espeak-ng's variants) speaks a sentence through the bundled synthesizer the render uses: a
// 22,050 Hz mono 16-bit clip with sound in it, and two voices of one locale sound different.

const tts = createLocalEngines().tts;
let dir: string;
let capabilities: EngineCapabilities;
let voices: OfferedVoice[];

beforeAll(async () => {
  dir = makeTempDir('installed-voices');
  capabilities = await detectCapabilities();
  voices = capabilities.locales.flatMap((l) => l.voices ?? []);
}, 60_000);
afterAll(() => removeTempDir(dir));

/** Root mean square of the samples, in full-scale units (0..1). */
function rms(wav: Buffer): number {
  const info = readWavInfo(wav);
  let sum = 0;
  const n = Math.floor(info.dataBytes / 2);
  for (let i = 0; i < n; i++) sum += (wav.readInt16LE(info.dataOffset + i * 2) / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, n));
}

it('offers every Festival voice of the catalog, best first within each locale', () => {
  const ids = new Set(voices.map((v) => v.id));
  for (const voice of FESTIVAL_VOICES) expect(ids).toContain(`festival:${voice.name}`);
  for (const locale of capabilities.locales) {
    const ranks = (locale.voices ?? []).map((v) => ['formant', 'diphone', 'hts', 'neural'].indexOf(v.quality));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  }
  // espeak-ng: the locale's own (male) voice and its female variant.
  expect(capabilities.locales.find((l) => l.locale === 'es_es')?.voices?.map((v) => [v.id, v.gender])).toEqual([
    ['espeak:es', 'male'],
    ['espeak:es+f3', 'female'],
  ]);
  expect(capabilities.locales.find((l) => l.locale === 'ca_es')?.voices?.[0]).toMatchObject({ id: 'festival:upc_ca_ona_hts', quality: 'hts', engine: 'festival', gender: 'female' });
});

it('speaks a sentence in every offered voice: non-silent, 22,050 Hz mono 16-bit', async () => {
  expect(voices.length).toBeGreaterThanOrEqual(FESTIVAL_VOICES.length + 2);
  const loudness = new Map<string, number>();
  const bytes = new Map<string, Buffer>();
  for (const voice of voices) {
    const file = path.join(dir, `${voice.id.replace(/[^a-z0-9]+/gi, '_')}-${voice.locale}.wav`);
    const [result] = await tts.synthesizeBatch([sampleSentence(voice.locale)], voice.id, [file]);
    const wav = readFileSync(file);
    const info = readWavInfo(wav);
    expect({ voice: voice.id, rate: info.sampleRate, channels: info.channels, bits: info.bitsPerSample }).toEqual({ voice: voice.id, rate: 22_050, channels: 1, bits: 16 });
    expect(result!.durationSeconds).toBeGreaterThan(1);
    loudness.set(voice.id, rms(wav));
    bytes.set(voice.id, wav);
  }
  for (const [id, level] of loudness) expect({ id, audible: level > 0.01 }).toEqual({ id, audible: true });
  // Two voices of one locale are two different recordings of the sentence.
  expect(bytes.get('festival:lp_diphone')!.equals(bytes.get('festival:pc_diphone')!)).toBe(false);
  expect(bytes.get('espeak:es')!.equals(bytes.get('espeak:es+f3')!)).toBe(false);
}, 180_000);

it('speaks a batch in one Festival process, each clip its own sentence, accents and quotes included', async () => {
  const texts = ['El gos és negre.', '', 'Diu "hola" i l\u2019àvia riu: \\ fi.', 'La casa és vermella, i el cel blau!'];
  const files = texts.map((_, i) => path.join(dir, `batch-${i}.wav`));
  const results = await tts.synthesizeBatch(texts, 'festival:upc_ca_ona_hts', files);
  expect(results[1]!.durationSeconds).toBe(0);
  for (const i of [0, 2, 3]) expect(results[i]!.durationSeconds).toBeGreaterThan(0.8);
  const alone = path.join(dir, 'alone.wav');
  const single = await tts.synthesize(texts[3]!, 'festival:upc_ca_ona_hts', alone);
  expect(single.durationSeconds).toBeCloseTo(results[3]!.durationSeconds, 2);
}, 60_000);
