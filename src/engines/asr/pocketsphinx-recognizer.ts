import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../capabilities';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import { pcmWavHeader, readWavInfo } from '../tts/wav-file';
import { planChunks, placeChunkWords, type AudioChunk, type ChunkPlanOptions } from './chunk-plan';
import { groupWords, type GroupingOptions } from './group-words';
import { parsePocketsphinxWords, type TimedWord } from './pocketsphinx-output';
import { dictionaryAdditions, type VocabularyTerm } from './recognition-vocabulary';
import { findQuietSpans } from './silence-finder';
import type { SpeechRecognizer, TranscribeOptions, Transcript } from './speech-recognizer';

export interface PocketsphinxOptions extends GroupingOptions {
  command?: string;
  /** Directory holding `<model>/` (acoustic model), `<model>.lm.bin` and `cmudict-<model>.dict`. */
  modelRoot?: string;
  model?: string;
  /** Decoders run at once on one recording; default: the machine's cores. 1 = whole-file decode. */
  parallelism?: number;
  /** Chunking knobs (split threshold, lead-in); see chunk-plan.ts. */
  chunking?: Omit<ChunkPlanOptions, 'maxChunks'>;
  /** Decoder search flags; default DEFAULT_SEARCH_ARGS. [] = pocketsphinx's own defaults. */
  searchArgs?: readonly string[];
}

/**
 * pocketsphinx's three search passes (tree search, flat-lexicon rescoring, best path over the
 * lattice) with a narrower beam than its own (3,000 active HMMs a frame instead of 30,000).
 * Chosen by accuracy first on held-out natural speech (docs/recognition.md: `npm run
 * bench:recognition`): 8.6 % of words wrong, the same as pocketsphinx's defaults, against 13.5 %
 * for the single narrow pass used before, at ~0.16 CPU s per audio s (defaults ~0.18, single
 * pass ~0.11). The single pass was chosen on espeak-ng's voice, which no customer uploads.
 */
export const DEFAULT_SEARCH_ARGS: readonly string[] = ['-maxhmmpf', '3000', '-maxwpf', '5'];

/**
 * The whole file (or chunk) is decoded as one utterance: pocketsphinx_continuous's voice activity
 * detector cuts utterances where it hears silence and drops the silence, but misreports where an
 * utterance starts. Measured on the benchmark's natural voice: a sentence spoken at 22.6 s was
 * timed at 26.9 s, and the next utterance's times ran backwards, so a chunked transcript
 * interleaved two sentences' words and captions and dubs landed seconds late. Without it every
 * word is timed from the start of the audio, sentence ends still come from the `<sil>` markers
 * (docs/recognition.md#one-utterance-per-chunk), and the words were as good or better (WER 9.0 % against
 * 16.9 % on the same 60 s clip, one decoder).
 */
const WHOLE_UTTERANCE_ARGS: readonly string[] = ['-remove_silence', 'no'];

export class PocketsphinxRecognizer implements SpeechRecognizer {
  private readonly command: string;
  private readonly modelArgs: string[];
  private readonly dictionary: string;
  private readonly grouping: GroupingOptions;
  private readonly parallelism: number;
  private readonly chunking: Omit<ChunkPlanOptions, 'maxChunks'>;
  private readonly searchArgs: readonly string[];

  constructor(options: PocketsphinxOptions = {}) {
    this.command = options.command ?? 'pocketsphinx_continuous';
    const root = options.modelRoot ?? POCKETSPHINX_MODEL_ROOT;
    const model = options.model ?? 'en-us';
    // Named explicitly rather than relying on the build's compiled-in default model path.
    this.dictionary = path.join(root, model, `cmudict-${model}.dict`);
    this.modelArgs = ['-hmm', path.join(root, model, model), '-lm', path.join(root, model, `${model}.lm.bin`)];
    this.grouping = { sentencePauseSeconds: options.sentencePauseSeconds };
    this.parallelism = options.parallelism ?? os.availableParallelism();
    this.chunking = options.chunking ?? {};
    this.searchArgs = options.searchArgs ?? DEFAULT_SEARCH_ARGS;
  }

  async transcribe(wav16k: string, options?: TranscribeOptions): Promise<Transcript> {
    // One decoder runs on one core, so a long recording is cut at pauses and its chunks decoded
    // at once. Words are grouped after joining, so a sentence may still span a cut.
    const bytes = await readFile(wav16k);
    const info = readWavInfo(bytes);
    const chunks = this.plan(bytes, info);
    const own = await this.callDictionary(options?.vocabulary ?? []);
    try {
      const dictArgs = ['-dict', own?.file ?? this.dictionary];
      // pocketsphinx_continuous skips exactly 44 bytes of a .wav, so a longer header (ffmpeg adds a
      // LIST chunk) would be decoded as samples and shift every frame; such a file is rewritten.
      const direct = chunks.length === 1 && info.dataOffset === 44;
      const words = direct ? await this.decode(wav16k, info.durationSeconds, dictArgs, options) : await this.decodeChunks(bytes, info, chunks, dictArgs, options);
      return { segments: groupWords(words, this.grouping) };
    } finally {
      if (own) await rm(own.dir, { recursive: true, force: true });
    }
  }

  /**
   * The model's dictionary with the call's term pronunciations added (docs/glossaries.md#recognition),
   * in a directory of its own; null when there is nothing to add.
   */
  private async callDictionary(vocabulary: readonly VocabularyTerm[]): Promise<{ dir: string; file: string } | null> {
    if (!vocabulary.some((term) => term.arpabet)) return null;
    const base = await readFile(this.dictionary, 'utf8');
    const additions = dictionaryAdditions(vocabulary, (word) => {
      const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return base.match(new RegExp(`^${escaped}(\\(\\d+\\))? `, 'gm'))?.length ?? 0;
    });
    if (additions.length === 0) return null;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'asr-dict-'));
    const file = path.join(dir, 'call.dict');
    await writeFile(file, `${base.replace(/\n?$/, '\n')}${additions.join('\n')}\n`);
    return { dir, file };
  }

  /** The chunks to decode: one (the whole file) unless the recording is long and has pauses to cut at. */
  plan(bytes: Buffer, info: ReturnType<typeof readWavInfo>): AudioChunk[] {
    const whole = [{ startSeconds: 0, endSeconds: info.durationSeconds, decodeFromSeconds: 0 }];
    if (this.parallelism < 2 || info.channels !== 1 || info.bitsPerSample !== 16) return whole;
    const samples = pcmSamples(bytes, info.dataOffset, info.dataBytes);
    return planChunks(info.durationSeconds, findQuietSpans(samples, info.sampleRate), { ...this.chunking, maxChunks: this.parallelism });
  }

  private async decodeChunks(bytes: Buffer, info: ReturnType<typeof readWavInfo>, chunks: AudioChunk[], dictArgs: readonly string[], options?: EngineCallOptions): Promise<TimedWord[]> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'asr-chunks-'));
    // One failed chunk fails the call; its siblings are killed rather than left decoding.
    const siblings = new AbortController();
    try {
      const results = await Promise.allSettled(
        chunks.map(async (chunk, i) => {
          const file = path.join(dir, `chunk-${i}.wav`);
          // A chunk is a byte slice of the samples behind a fresh header: no ffmpeg process.
          const from = info.dataOffset + sampleByte(chunk.decodeFromSeconds, info.sampleRate);
          const to = Math.min(info.dataOffset + info.dataBytes, info.dataOffset + sampleByte(chunk.endSeconds, info.sampleRate));
          await writeFile(file, Buffer.concat([pcmWavHeader(info.sampleRate, to - from), bytes.subarray(from, to)]));
          try {
            return placeChunkWords(chunk, await this.decode(file, chunk.endSeconds - chunk.decodeFromSeconds, dictArgs, options, siblings.signal));
          } catch (error) {
            siblings.abort();
            throw error;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async decode(wav: string, seconds: number, dictArgs: readonly string[], options?: EngineCallOptions, signal?: AbortSignal): Promise<TimedWord[]> {
    // pocketsphinx decodes at about a quarter of real time on one core; allow 3× real time
    // plus start-up, per process (so per chunk when chunked).
    const { stdout } = await runProcess(this.command, ['-infile', wav, '-time', 'yes', '-logfn', '/dev/null', ...WHOLE_UTTERANCE_ARGS, ...this.modelArgs, ...dictArgs, ...this.searchArgs], {
      timeoutMs: timeoutFor(options, 30_000, seconds, 3000),
      onTick: options?.onTick,
      signal,
    });
    return parsePocketsphinxWords(stdout.toString('utf8'));
  }
}

function pcmSamples(bytes: Buffer, offset: number, length: number): Int16Array {
  // Copied: the file's data chunk need not start on an even byte offset within the buffer.
  const copy = bytes.subarray(offset, offset + length - (length % 2));
  return new Int16Array(copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.length));
}

/** Byte offset of the sample at `seconds` in 16-bit mono PCM. */
function sampleByte(seconds: number, sampleRate: number): number {
  return Math.round(seconds * sampleRate) * 2;
}
