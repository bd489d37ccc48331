import { open } from 'node:fs/promises';
import { findQuietSpans, type QuietSpan } from '../asr/silence-finder';
import { vocabularyPrompt } from '../asr/recognition-vocabulary';
import type { RecognizedSegment, SpeechRecognizer, TranscribeOptions, Transcript } from '../asr/speech-recognizer';
import { pcmWavHeader } from '../tts/wav-file';
import { readWavFileInfo } from '../tts/wav-file-duration';
import { EngineResponseError } from './engine-errors';
import { callEngine, type EngineEndpoint } from './engine-request';
import type { ExternalAsrSettings } from './external-engine-settings';
import { multipartBody, type FilePiece } from './multipart-upload';
import { parseVerboseTranscription } from './transcription-response';
import { planUploadChunks } from './upload-chunks';

// Speech recognition by an OpenAI-compatible server (docs/engines.md#speech-recognition):
// whisper.cpp's server, faster-whisper-server / Speaches, LocalAI. The 16 kHz WAV the media step
// made is streamed from disk as the multipart `file` (multipart-upload.ts: never read into memory
// whole); a recording over the server's upload limit goes as several requests, cut at pauses.

export const TRANSCRIPTIONS_PATH = '/audio/transcriptions';
const WAV_HEADER_BYTES = 44;

export class OpenAiTranscriber implements SpeechRecognizer {
  private readonly endpoint: EngineEndpoint;

  constructor(
    private readonly settings: ExternalAsrSettings,
    retry?: EngineEndpoint['retry'],
  ) {
    this.endpoint = { engine: 'speech recognition', url: settings.url, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, maxAttempts: settings.maxAttempts, retry };
  }

  /** Serves the locales it was configured with (ASR_ENGINE_LOCALES). */
  serves(locale: string | undefined): boolean {
    return locale !== undefined && this.settings.locales.includes(locale);
  }

  async transcribe(wav16k: string, options?: TranscribeOptions): Promise<Transcript> {
    const info = await readWavFileInfo(wav16k);
    if (info.bitsPerSample !== 16) throw new RangeError(`expected 16-bit PCM, got ${info.bitsPerSample}-bit`);
    const frameBytes = info.channels * 2;
    const limit = this.settings.maxUploadBytes;
    const fitsWhole = limit === 0 || info.dataOffset + info.dataBytes <= limit;
    const chunks = fitsWhole
      ? [{ startSeconds: 0, endSeconds: info.durationSeconds }]
      : await planUploadChunks(info.durationSeconds, { maxChunkSeconds: Math.floor((limit - WAV_HEADER_BYTES) / frameBytes) / info.sampleRate }, (from, to) =>
          quietSpansBetween(wav16k, info, from, to),
        );

    const segments: RecognizedSegment[] = [];
    // One after another: a GPU server serves one request at a time, and each chunk's words are
    // placed on the recording's clock in order.
    for (const chunk of chunks) {
      const pieces: FilePiece[] = fitsWhole
        ? [{ path: wav16k, start: 0, end: info.dataOffset + info.dataBytes }]
        : (() => {
            const from = info.dataOffset + Math.round(chunk.startSeconds * info.sampleRate) * frameBytes;
            const to = Math.min(info.dataOffset + info.dataBytes, info.dataOffset + Math.round(chunk.endSeconds * info.sampleRate) * frameBytes);
            // A header of its own, then the chunk's samples read from the file as they are sent.
            return [pcmWavHeader(info.sampleRate, to - from, info.channels), { path: wav16k, start: from, end: to }];
          })();
      segments.push(...(await this.request(pieces, chunk.startSeconds, options)));
    }
    return { segments };
  }

  private async request(audio: readonly FilePiece[], offsetSeconds: number, options?: TranscribeOptions): Promise<RecognizedSegment[]> {
    const form = multipartBody(transcriptionFields(this.settings.model, options?.locale, vocabularyPrompt(options?.vocabulary ?? [])), {
      field: 'file',
      filename: 'audio.wav',
      contentType: 'audio/wav',
      pieces: audio,
    });
    const response = await callEngine(this.endpoint, {
      method: 'POST',
      path: TRANSCRIPTIONS_PATH,
      headers: { 'content-type': form.contentType, 'content-length': String(form.contentLength) },
      body: form.stream,
      onTick: options?.onTick,
    });
    const body = await response.readWithin((r) => r.json().catch(() => undefined));
    const segments = parseVerboseTranscription(body, offsetSeconds);
    if (segments === null) throw new EngineResponseError('speech recognition', response.where, 'no verbose_json transcription (segments with start, end and text)');
    return segments;
  }
}

/** The form fields of one transcription request, beside its `file`. */
export function transcriptionFields(model: string, locale: string | undefined, prompt: string | null = null): [string, string][] {
  const fields: [string, string][] = [
    ['model', model],
    ['response_format', 'verbose_json'],
    ['timestamp_granularities[]', 'segment'],
    ['timestamp_granularities[]', 'word'],
  ];
  // ISO 639-1, as the OpenAI API takes it: saves the server guessing the language.
  const language = locale?.split('_')[0];
  if (language) fields.push(['language', language]);
  // Glossary terms, spelt as the transcript should write them (docs/glossaries.md#recognition).
  if (prompt) fields.push(['prompt', prompt]);
  return fields;
}

/** The pauses between two times, reading only those samples from disk. */
async function quietSpansBetween(file: string, info: { sampleRate: number; channels: number; dataOffset: number; dataBytes: number }, fromSeconds: number, toSeconds: number): Promise<QuietSpan[]> {
  const frameBytes = info.channels * 2;
  const first = Math.max(0, Math.floor(fromSeconds * info.sampleRate));
  const last = Math.min(info.dataBytes / frameBytes, Math.ceil(toSeconds * info.sampleRate));
  if (last <= first) return [];
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc((last - first) * frameBytes);
    await handle.read(bytes, 0, bytes.length, info.dataOffset + first * frameBytes);
    // Mono is what the media step makes; with more channels, the first one is listened to.
    const all = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    const samples = info.channels === 1 ? all : all.filter((_, i) => i % info.channels === 0);
    const offset = first / info.sampleRate;
    return findQuietSpans(samples, info.sampleRate).map((q) => ({ startSeconds: q.startSeconds + offset, endSeconds: q.endSeconds + offset }));
  } finally {
    await handle.close();
  }
}
