import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EspeakSynthesizer } from '../../../../src/engines/tts/espeak-synthesizer';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { ProcessError } from '../../../../src/engines/run-process';
import { ffprobe, makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

const tts = new EspeakSynthesizer();
let dir: string;

beforeAll(() => {
  dir = makeTempDir('espeak');
});

afterAll(() => removeTempDir(dir));

it('speaks text into a WAV and reports its real duration', async () => {
  const out = path.join(dir, 'es.wav');
  const { durationSeconds } = await tts.synthesize('Hola mundo. La casa es roja.', 'es', out);
  expect(durationSeconds).toBeGreaterThan(1);
  const probed = await ffprobe(out);
  expect(probed.streams[0]!.codec_name).toBe('pcm_s16le');
  expect(Math.abs(probed.durationSeconds - durationSeconds)).toBeLessThan(0.02);
});

it('takes longer to say more words', async () => {
  const short = await tts.synthesize('La casa.', 'es', path.join(dir, 'short.wav'));
  const long = await tts.synthesize('La casa es roja y el perro es negro y el coche es verde.', 'es', path.join(dir, 'long.wav'));
  expect(long.durationSeconds).toBeGreaterThan(short.durationSeconds * 2);
});

it('speaks faster at a higher words-per-minute rate', async () => {
  const text = 'A casa é vermelha e o cão é preto.';
  const normal = await tts.synthesize(text, 'pt', path.join(dir, 'pt-normal.wav'));
  const fast = await new EspeakSynthesizer({ wordsPerMinute: 260 }).synthesize(text, 'pt', path.join(dir, 'pt-fast.wav'));
  expect(fast.durationSeconds).toBeLessThan(normal.durationSeconds * 0.85);
});

it('speaks text that looks like a command-line option instead of obeying it', async () => {
  const out = path.join(dir, 'dash.wav');
  const { durationSeconds } = await tts.synthesize('--help -q -w /tmp/evil.wav', 'en-us', out);
  expect(durationSeconds).toBeGreaterThan(0.5);
  expect(readWavInfo(readFileSync(out)).durationSeconds).toBe(durationSeconds);
});

it('writes a valid empty WAV for blank text', async () => {
  const out = path.join(dir, 'blank.wav');
  await expect(tts.synthesize(' \n ', 'es', out)).resolves.toEqual({ durationSeconds: 0 });
  expect(readWavInfo(readFileSync(out)).durationSeconds).toBe(0);
});

it('rejects an unknown voice and a voice that looks like an option', async () => {
  await expect(tts.synthesize('Hola.', 'xx-nonexistent', path.join(dir, 'x.wav'))).rejects.toBeInstanceOf(ProcessError);
  await expect(tts.synthesize('Hola.', '-q', path.join(dir, 'x.wav'))).rejects.toBeInstanceOf(RangeError);
});
