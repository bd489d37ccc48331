import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineRejectedError, EngineResponseError } from '../../../../src/engines/external/engine-errors';
import type { ExternalAsrSettings } from '../../../../src/engines/external/external-engine-settings';
import { OpenAiTranscriber } from '../../../../src/engines/external/openai-transcriber';
import { pcmWav } from '../../../../src/engines/tts/wav-file';
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from '../../../fakes/openai-transcription-server';
import { pcm } from '../../../helpers/synthetic-pcm';

// The recognizer against the double of an OpenAI-compatible server: the multipart request it
// builds, the transcript it reads back, and long audio sent as chunks under the upload limit.

let dir: string;
let server: FakeTranscriptionServer;
const settings = (overrides: Partial<ExternalAsrSettings> = {}): ExternalAsrSettings => ({
  url: server.url,
  model: 'whisper-large-v3',
  apiKey: 'k-0123456789',
  locales: ['en_us', 'de_de'],
  maxUploadBytes: 0,
  timeoutMs: 5_000,
  maxAttempts: 2,
  ...overrides,
});
const noWait = { sleep: async () => undefined };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'openai-asr-'));
  server = await startFakeTranscriptionServer();
  server.requiredKey = 'k-0123456789';
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.calls.length = 0;
  server.script = ['Guten Morgen.', 'Wie geht es dir?'];
});

function wavOf(parts: Parameters<typeof pcm>[0]): string {
  const samples = pcm(parts);
  const file = path.join(dir, `speech-${Date.now()}-${Math.random()}.wav`);
  writeFileSync(file, pcmWav(16_000, Buffer.from(samples.buffer)));
  return file;
}

it('sends the WAV with the model, verbose_json, both granularities and the language, and reads the segments', async () => {
  const wav = wavOf([{ kind: 'tone', seconds: 4 }]);
  const transcript = await new OpenAiTranscriber(settings(), noWait).transcribe(wav, { locale: 'de_de' });
  expect(server.calls).toHaveLength(1);
  expect(server.calls[0]).toMatchObject({
    path: '/audio/transcriptions',
    status: 200,
    bearer: 'k-0123456789',
    file: { name: 'audio.wav', type: 'audio/wav', bytes: 44 + 4 * 32_000, sampleRate: 16_000, channels: 1 },
  });
  expect(server.calls[0]!.fields).toEqual({ model: ['whisper-large-v3'], response_format: ['verbose_json'], 'timestamp_granularities[]': ['segment', 'word'], language: ['de'] });
  expect(transcript.segments).toEqual([
    { startSeconds: 0.2, endSeconds: 1.8, text: 'Guten Morgen.' },
    { startSeconds: 2.2, endSeconds: 3.8, text: 'Wie geht es dir?' },
  ]);
});

it('serves only its configured locales', () => {
  const asr = new OpenAiTranscriber(settings());
  expect([asr.serves('de_de'), asr.serves('en_us'), asr.serves('fr_fr'), asr.serves(undefined)]).toEqual([true, true, false, false]);
});

it('sends long audio in chunks cut at pauses, each under the limit, and places them on one clock', async () => {
  // 50 s with a pause every 5 s; at most ~20 s (640 KB) a request.
  const parts: { kind: 'tone' | 'silence'; seconds: number }[] = [];
  for (let i = 0; i < 10; i++) parts.push({ kind: 'tone', seconds: 4.5 }, { kind: 'silence', seconds: 0.5 });
  const wav = wavOf(parts);
  server.script = ['Ein Satz.'];
  const limit = 44 + 20 * 32_000;
  const transcript = await new OpenAiTranscriber(settings({ maxUploadBytes: limit }), noWait).transcribe(wav, { locale: 'de_de' });
  expect(server.calls.length).toBe(3);
  for (const call of server.calls) {
    expect(call.file!.bytes).toBeLessThanOrEqual(limit);
    expect(call.file!.sampleRate).toBe(16_000);
  }
  // The chunks add up to the recording, cut in the pauses (at 19.75 and 39.75 s).
  const lengths = server.calls.map((c) => c.file!.seconds!);
  expect(lengths.reduce((a, b) => a + b, 0)).toBeCloseTo(50, 3);
  expect(lengths.map((s) => Math.round(s * 100) / 100)).toEqual([19.75, 20, 10.25]);
  // One sentence "heard" per chunk, each on the recording's clock.
  expect(transcript.segments.map((s) => Math.round(s.startSeconds * 100) / 100)).toEqual([1.98, 21.75, 40.78]);
});

it('fails as refused on a 4xx and as unreadable on a body that is not verbose_json', async () => {
  server.failNext('/audio/transcriptions', 1, { status: 413, body: { error: { message: 'Maximum content size limit exceeded' } } });
  const wav = wavOf([{ kind: 'tone', seconds: 1 }]);
  await expect(new OpenAiTranscriber(settings(), noWait).transcribe(wav, { locale: 'en_us' })).rejects.toBeInstanceOf(EngineRejectedError);
  server.failNext('/audio/transcriptions', 1, { status: 200, body: { text: 'Hello.' } });
  await expect(new OpenAiTranscriber(settings(), noWait).transcribe(wav, { locale: 'en_us' })).rejects.toBeInstanceOf(EngineResponseError);
});
