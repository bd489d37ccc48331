import { bearerOf, startFakeEngineServer, type FakeEngineServer } from './fake-engine-server';

// A local OpenAI-compatible speech server (Speaches, Kokoro-FastAPI, openedai-speech, LocalAI):
// `POST /v1/audio/speech` with JSON `{ model, input, voice, response_format }`. It answers a
// 24 kHz WAV as Kokoro does, written the way a streaming server writes it (placeholder sizes in
// the header), holding a tone as long as the text would take to say (~14 characters a second),
// so the pipeline's timing and normalization work on what such a server really sends.

export interface SpeechCall {
  path: string;
  status: number;
  bearer: string | null;
  body: { model?: unknown; input?: unknown; voice?: unknown; response_format?: unknown } | null;
}

export type FakeSpeechServer = FakeEngineServer<SpeechCall> & { voices: Set<string> };

const RATE = 24_000;

export async function startFakeSpeechServer(voices: readonly string[]): Promise<FakeSpeechServer> {
  const server = (await startFakeEngineServer<SpeechCall>('/v1', async (path, request, self) => {
    const bearer = bearerOf(request);
    if (request.method !== 'POST' || path !== '/audio/speech') return { call: { path, status: 0, bearer, body: null }, status: 404, body: { detail: 'Not Found' } };
    const body = (await request.json().catch(() => null)) as SpeechCall['body'];
    const call: SpeechCall = { path, status: 0, bearer, body };
    if (self.requiredKey !== null && bearer !== self.requiredKey) return { call, status: 401, body: { detail: 'Invalid API key' } };
    if (!body || typeof body.input !== 'string' || typeof body.model !== 'string') return { call, status: 422, body: { detail: [{ loc: ['body', 'input'], msg: 'Field required', type: 'missing' }] } };
    if (typeof body.voice !== 'string' || !(self as FakeSpeechServer).voices.has(body.voice))
      return { call, status: 400, body: { detail: { error: 'validation_error', message: `Voice '${String(body.voice)}' not found`, type: 'invalid_request_error' } } };
    if (body.response_format !== 'wav') return { call, status: 400, body: { detail: `Unsupported response_format ${String(body.response_format)}` } };
    return { call, status: 200, body: streamedWav(body.input.length / 14), contentType: 'audio/wav' };
  })) as FakeSpeechServer;
  server.voices = new Set(voices);
  return server;
}

/** A 24 kHz mono 16-bit tone whose header sizes are 0xFFFFFFFF, as a streaming writer leaves them. */
function streamedWav(seconds: number): Buffer {
  const samples = Math.max(1, Math.round(seconds * RATE));
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(0xffffffff, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(RATE, 24);
  out.writeUInt32LE(RATE * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(0xffffffff, 40);
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / RATE)), 44 + i * 2);
  return out;
}
