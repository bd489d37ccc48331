import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EspeakSynthesizer } from '../../../../src/engines/tts/espeak-synthesizer';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { ffprobe, makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// Batched synthesis against the real espeak-ng: each clip must be what synthesizing its sentence
// alone gives. Measured: sentences without quotes or brackets match to ~1 ms, these within 15.
const TOLERANCE_SECONDS = 0.015;

const tts = new EspeakSynthesizer();
let dir: string;
let n = 0;
const outs = (count: number) => Array.from({ length: count }, () => path.join(dir, `clip-${n++}.wav`));

beforeAll(() => {
  dir = makeTempDir('espeak-batch');
});
afterAll(() => removeTempDir(dir));

async function singleDurations(texts: string[], voice: string): Promise<number[]> {
  const seconds: number[] = [];
  for (const text of texts) seconds.push((await tts.synthesize(text, voice, outs(1)[0]!)).durationSeconds);
  return seconds;
}

it.each([
  ['ca', ['El gos és negre.', 'La casa és vermella, i el cel blau!']],
  ['en-us', ['The garden is green and the sky is blue today.', 'Wait, what?']],
])('%s: one clip per sentence, as long as the sentence spoken alone', async (voice, texts) => {
  const files = outs(texts.length);
  const batch = await tts.synthesizeBatch(texts, voice, files);
  const alone = await singleDurations(texts, voice);
  expect(batch).toHaveLength(texts.length);
  for (const [i, file] of files.entries()) {
    expect(Math.abs(batch[i]!.durationSeconds - alone[i]!)).toBeLessThan(TOLERANCE_SECONDS);
    // The reported duration is the file's, and the file is a proper 22.05 kHz mono PCM WAV.
    expect(readWavInfo(readFileSync(file)).durationSeconds).toBeCloseTo(batch[i]!.durationSeconds, 6);
    const probed = await ffprobe(file);
    expect(probed.streams[0]).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: '22050', channels: 1 });
  }
});

// Known gap (not fixed yet): after some sentences ('¿…perro?', pt '…preto.') the separator comes
// out longer, and the excess is taken for the next sentence's lead-in (+49 ms, +147 ms measured).
// This bounds it: the extra lead-in stays silence at the head of the clip (dub_quality's start
// offset shows it), and it must never grow past 200 ms or eat into the speech.
it('known gap: a lead-in after some sentences runs long, by at most 200 ms of leading silence', async () => {
  const texts = ['A casa é vermelha e o cão é preto.', 'O gato dorme.'];
  const files = outs(texts.length);
  const batch = await tts.synthesizeBatch(texts, 'pt', files);
  const alone = await singleDurations(texts, 'pt');
  for (const [i, r] of batch.entries()) {
    const extra = r.durationSeconds - alone[i]!;
    expect(extra).toBeGreaterThan(-TOLERANCE_SECONDS);
    expect(extra).toBeLessThan(0.2);
  }
});

it('keeps sentence boundaries: a long and a short sentence are not swapped or merged', async () => {
  const texts = ['La casa es roja y el perro es negro y el coche es verde y el cielo es azul.', 'Sí.'];
  const [long, short] = await tts.synthesizeBatch(texts, 'es', outs(2));
  expect(long!.durationSeconds).toBeGreaterThan(short!.durationSeconds * 3);
});

it('gives a blank sentence in the middle an empty clip and keeps the others in place', async () => {
  const texts = ['Uno dos tres.', '  \n ', 'Cuatro cinco seis siete ocho nueve diez.'];
  const files = outs(3);
  const batch = await tts.synthesizeBatch(texts, 'es', files);
  const alone = await singleDurations([texts[0]!, texts[2]!], 'es');
  expect(batch[1]).toEqual({ durationSeconds: 0 });
  expect(readWavInfo(readFileSync(files[1]!)).durationSeconds).toBe(0);
  expect(Math.abs(batch[0]!.durationSeconds - alone[0]!)).toBeLessThan(TOLERANCE_SECONDS);
  expect(Math.abs(batch[2]!.durationSeconds - alone[1]!)).toBeLessThan(TOLERANCE_SECONDS);
});

it('handles a batch of one and a batch of none', async () => {
  const [only] = await tts.synthesizeBatch(['Buenos días a todos.'], 'es', outs(1));
  const [alone] = await singleDurations(['Buenos días a todos.'], 'es');
  expect(Math.abs(only!.durationSeconds - alone!)).toBeLessThan(TOLERANCE_SECONDS);
  await expect(tts.synthesizeBatch([], 'es', [])).resolves.toEqual([]);
});

it('speaks XML special characters instead of breaking the document', async () => {
  const texts = ['Menor < mayor & más > menos.', 'Fin </s></speak> <break time="9s"/> del texto.', 'Sigue.'];
  const batch = await tts.synthesizeBatch(texts, 'es', outs(3));
  const alone = await singleDurations(texts, 'es');
  // '<', '&' and '>' are spoken as words (so the clip is long), and markup in the text neither
  // ends the document nor inserts a pause: every clip matches the sentence spoken alone.
  expect(batch[0]!.durationSeconds).toBeGreaterThan(2);
  for (const [i, result] of batch.entries()) expect(Math.abs(result.durationSeconds - alone[i]!)).toBeLessThan(0.05);
});

it('falls back to one process per sentence when the split does not give one piece each', async () => {
  // U+A788 is a letter espeak-ng speaks as nothing: the batch yields a piece too few.
  const texts = ['Hola a todos.', '\ua788', 'Adiós a todos.'];
  const files = outs(3);
  const batch = await tts.synthesizeBatch(texts, 'es', files);
  const alone = await singleDurations(texts, 'es');
  // Per-sentence synthesis is exact, which the batch path is only to within a few samples.
  expect(batch.map((r) => r.durationSeconds)).toEqual(alone);
});

it('speaks a punctuation-only sentence on its own, as synthesize does', async () => {
  const texts = ['Primero.', '...', 'Segundo.'];
  const batch = await tts.synthesizeBatch(texts, 'es', outs(3));
  const alone = await singleDurations(texts, 'es');
  expect(batch[1]!.durationSeconds).toBe(alone[1]);
  expect(Math.abs(batch[2]!.durationSeconds - alone[2]!)).toBeLessThan(TOLERANCE_SECONDS);
});

it('splits a long list into bounded batches with the same result', async () => {
  const texts = ['Uno.', 'Dos y tres.', 'Cuatro, cinco.', 'Seis.', 'Siete ocho.'];
  const small = await new EspeakSynthesizer({ maxBatch: 2 }).synthesizeBatch(texts, 'es', outs(5));
  const whole = await tts.synthesizeBatch(texts, 'es', outs(5));
  for (const [i, r] of small.entries()) expect(Math.abs(r.durationSeconds - whole[i]!.durationSeconds)).toBeLessThan(TOLERANCE_SECONDS);
});

it('rejects mismatched lists and a bad voice', async () => {
  await expect(tts.synthesizeBatch(['a', 'b'], 'es', outs(1))).rejects.toBeInstanceOf(RangeError);
  await expect(tts.synthesizeBatch(['Hola.'], '-q', outs(1))).rejects.toBeInstanceOf(RangeError);
});
