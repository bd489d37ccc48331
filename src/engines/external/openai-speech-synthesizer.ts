import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import type { SpeechSynthesizer, SynthesisResult } from '../tts/speech-synthesizer';
import { silentWav } from '../tts/wav-file';
import { wavFileDurationSeconds } from '../tts/wav-file-duration';
import { EngineResponseError } from './engine-errors';
import { callEngine, type EngineEndpoint } from './engine-request';
import type { ExternalTtsSettings } from './external-engine-settings';

// Speech by an OpenAI-compatible server (docs/engines.md#speech-synthesis): Speaches,
// Kokoro-FastAPI, openedai-speech, LocalAI. Each answer is streamed to disk, then rewritten by
// ffmpeg as the 22,050 Hz mono 16-bit WAV espeak-ng makes: servers answer at their model's rate
// (24 kHz for Kokoro) and a streaming one leaves placeholder sizes in the header, while the
// rest of the pipeline (silence trimming, timing, the mix) reads plain PCM.

export const SPEECH_PATH = '/audio/speech';
const CLIP_RATE = 22_050;
/** Requests in flight at once for one batch: keeps a GPU server busy without flooding it. */
const BATCH_CONCURRENCY = 4;

export class OpenAiSpeechSynthesizer implements SpeechSynthesizer {
  private readonly endpoint: EngineEndpoint;

  constructor(
    private readonly settings: ExternalTtsSettings,
    retry?: EngineEndpoint['retry'],
    private readonly ffmpeg = 'ffmpeg',
  ) {
    this.endpoint = { engine: 'speech synthesis', url: settings.url, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, maxAttempts: settings.maxAttempts, retry };
  }

  async synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult> {
    const spoken = text.replace(/\s+/g, ' ').trim();
    if (!spoken) {
      await writeFile(outWav, silentWav(CLIP_RATE));
      return { durationSeconds: 0 };
    }
    const work = await mkdtemp(path.join(os.tmpdir(), 'tts-'));
    try {
      const answer = path.join(work, 'answer.wav');
      const response = await callEngine(this.endpoint, {
        method: 'POST',
        path: SPEECH_PATH,
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: () => JSON.stringify(speechRequest(this.settings.model, spoken, voice)),
        onTick: options?.onTick,
      });
      await response.readWithin(async (r) => {
        if (!r.body) throw new EngineResponseError('speech synthesis', response.where, 'an empty body');
        await pipeline(Readable.fromWeb(r.body as WebReadableStream<Uint8Array>), createWriteStream(answer));
      });
      try {
        await runProcess(
          this.ffmpeg,
          ['-nostdin', '-v', 'error', '-y', '-i', answer, '-ac', '1', '-ar', String(CLIP_RATE), '-c:a', 'pcm_s16le', '-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact', outWav],
          {
            timeoutMs: timeoutFor(options, 30_000),
            onTick: options?.onTick,
          },
        );
      } catch {
        throw new EngineResponseError('speech synthesis', response.where, 'audio ffmpeg cannot decode (response_format wav was asked for)');
      }
      return { durationSeconds: await wavFileDurationSeconds(outWav) };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async synthesizeBatch(texts: readonly string[], voice: string, outWavs: readonly string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
    if (texts.length !== outWavs.length) throw new RangeError(`${texts.length} texts but ${outWavs.length} output files`);
    const results: SynthesisResult[] = new Array(texts.length);
    let next = 0;
    let failed = false;
    const lane = async () => {
      // A failed sentence stops every lane: the step fails (and is retried) as a whole.
      while (next < texts.length && !failed) {
        const i = next++;
        try {
          results[i] = await this.synthesize(texts[i]!, voice, outWavs[i]!, options);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, texts.length) }, lane));
    return results;
  }
}

/** The JSON body of one speech request. */
export function speechRequest(model: string, input: string, voice: string) {
  return { model, input, voice, response_format: 'wav' };
}
