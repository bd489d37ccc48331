import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineRejectedError } from '../../../../src/engines/external/engine-errors';
import { OpenAiSpeechSynthesizer } from '../../../../src/engines/external/openai-speech-synthesizer';
import { readWavInfo } from '../../../../src/engines/tts/wav-file';
import { startFakeSpeechServer, type FakeSpeechServer } from '../../../fakes/openai-speech-server';

let dir: string;
let server: FakeSpeechServer;
const synthesizer = () =>
  new OpenAiSpeechSynthesizer({ url: server.url, model: 'kokoro', apiKey: null, voices: { es_es: ['ef_dora'] }, timeoutMs: 5_000, maxAttempts: 2 }, { sleep: async () => undefined });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'openai-tts-'));
  server = await startFakeSpeechServer(['ef_dora']);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it("asks for WAV with the model and voice, and writes plain 22,050 Hz mono PCM of the answer's length", async () => {
  const out = path.join(dir, 'one.wav');
  // 28 characters: the double speaks 2 s at 24 kHz, with a streaming header (sizes 0xFFFFFFFF).
  const result = await synthesizer().synthesize('Buenos días a todos, amigos.', 'ef_dora', out);
  expect(server.calls[0]).toMatchObject({ path: '/audio/speech', status: 200, body: { model: 'kokoro', input: 'Buenos días a todos, amigos.', voice: 'ef_dora', response_format: 'wav' } });
  const info = readWavInfo(readFileSync(out));
  expect(info).toMatchObject({ sampleRate: 22_050, channels: 1, bitsPerSample: 16 });
  expect(result.durationSeconds).toBeCloseTo(2, 2);
  expect(info.durationSeconds).toBeCloseTo(result.durationSeconds, 3);
});

it('speaks a batch, one file per text, a blank text as silence without a request', async () => {
  const before = server.calls.length;
  const outs = ['a', 'b', 'c'].map((n) => path.join(dir, `${n}.wav`));
  const results = await synthesizer().synthesizeBatch(['Hola.', '   ', 'Adiós, hasta mañana.'], 'ef_dora', outs);
  expect(results.map((r) => Math.round(r.durationSeconds * 100) / 100)).toEqual([0.36, 0, 1.43]);
  expect(server.calls.length - before).toBe(2);
  expect(readWavInfo(readFileSync(outs[1]!)).durationSeconds).toBe(0);
});

it('fails as refused when the server refuses the voice', async () => {
  await expect(synthesizer().synthesize('Hola.', 'af_nobody', path.join(dir, 'x.wav'))).rejects.toBeInstanceOf(EngineRejectedError);
});
