import { bearerOf, startFakeEngineServer, type FakeEngineServer } from './fake-engine-server';

// A local OpenAI-compatible speech recognition server (whisper.cpp's server, Speaches and
// LocalAI speak this): `POST /v1/audio/transcriptions`, multipart, answering `verbose_json` with
// segments and top-level words, as Speaches does. It hears nothing: the test says what was
// "said" (`script`), and the double places those sentences evenly over the audio it received,
// so the timings follow the real file. Every request is recorded: the file's name, type, size
// and WAV header, and each form field.

export interface TranscriptionCall {
  path: string;
  status: number;
  bearer: string | null;
  file: { name: string; type: string; bytes: number; sampleRate: number | null; channels: number | null; seconds: number | null } | null;
  fields: Record<string, string[]>;
}

export interface FakeTranscriptionServer extends FakeEngineServer<TranscriptionCall> {
  /** Sentences "heard" in each request's audio, placed evenly over it. */
  script: string[];
}

export async function startFakeTranscriptionServer(): Promise<FakeTranscriptionServer> {
  const server = (await startFakeEngineServer<TranscriptionCall>('/v1', async (path, request, self) => {
    const bearer = bearerOf(request);
    if (request.method !== 'POST' || path !== '/audio/transcriptions') return { call: { path, status: 0, bearer, file: null, fields: {} }, status: 404, body: { detail: 'Not Found' } };
    const form = await request.formData();
    const fields: Record<string, string[]> = {};
    let file: TranscriptionCall['file'] = null;
    let audio: Buffer | null = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') (fields[name] ??= []).push(value);
      else {
        audio = Buffer.from(await value.arrayBuffer());
        const header = wavHeader(audio);
        file = { name: value.name, type: value.type, bytes: audio.length, ...header };
      }
    }
    const call: TranscriptionCall = { path, status: 0, bearer, file, fields };
    if (self.requiredKey !== null && bearer !== self.requiredKey)
      return { call, status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    if (!audio || !file) return { call, status: 400, body: { error: { message: "Missing required parameter: 'file'.", type: 'invalid_request_error' } } };
    if (!fields.model?.[0]) return { call, status: 400, body: { error: { message: "Missing required parameter: 'model'.", type: 'invalid_request_error' } } };
    const seconds = file.seconds ?? 0;
    return { call, status: 200, body: verboseJson((self as FakeTranscriptionServer).script, seconds, fields.language?.[0] ?? 'en') };
  })) as FakeTranscriptionServer;
  server.script = [];
  return server;
}

/** Sentences spread evenly over the audio, each with its words, as verbose_json. */
function verboseJson(script: readonly string[], seconds: number, language: string) {
  const slot = script.length > 0 ? seconds / script.length : 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  const segments = script.map((text, id) => {
    const start = round(id * slot + slot * 0.1);
    const end = round((id + 1) * slot - slot * 0.1);
    const words = text.split(/\s+/);
    const step = (end - start) / words.length;
    return {
      id,
      seek: 0,
      start,
      end,
      text: ` ${text}`,
      tokens: [],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
      words: words.map((word, i) => ({ word: ` ${word}`, start: round(start + i * step), end: round(start + (i + 1) * step), probability: 0.9 })),
    };
  });
  return { task: 'transcribe', language, duration: seconds, text: script.join(' '), segments, words: segments.flatMap((s) => s.words) };
}

function wavHeader(bytes: Buffer): { sampleRate: number | null; channels: number | null; seconds: number | null } {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return { sampleRate: null, channels: null, seconds: null };
  let offset = 12;
  let rate = 0;
  let channels = 0;
  let bits = 16;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(offset + 10);
      rate = bytes.readUInt32LE(offset + 12);
      bits = bytes.readUInt16LE(offset + 22);
    }
    if (id === 'data') return { sampleRate: rate, channels, seconds: (bytes.length - offset - 8) / (rate * channels * (bits / 8)) };
    offset += 8 + size + (size % 2);
  }
  return { sampleRate: rate || null, channels: channels || null, seconds: null };
}
