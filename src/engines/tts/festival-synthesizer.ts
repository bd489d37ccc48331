import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import type { SpeechSynthesizer, SynthesisResult } from './speech-synthesizer';
import { findFestivalVoice, type FestivalVoiceDefinition } from './voice-catalog';
import { readWavInfo, silentWav } from './wav-file';

// Festival's voices (docs/voices.md). One `festival --pipe` process speaks a whole batch: a
// Scheme script selects the voice once, then synthesizes each sentence as its own utterance and
// saves it to its own file, so nothing has to be cut apart afterwards (unlike espeak-ng's batch)
// and each clip is exactly what the sentence alone gives. Loading the voice is most of a short
// sentence's time, which the batch pays once. Clips are resampled by Festival itself to the
// 22,050 Hz mono 16-bit PCM the rest of the pipeline reads (espeak-ng's format).

export interface FestivalOptions {
  command?: string;
  /** Most sentences one process speaks: bounds one process's run and its script's size. */
  maxBatch?: number;
  /**
   * Processes one batch runs at once (default: 2, or 1 on one core). Festival speaks on one core,
   * and an HTS voice is ~15 times slower than espeak-ng (docs/voices.md#speed): a long batch is
   * split so a language's speech is not bound to a single core.
   */
  parallelism?: number;
}

/** Below this many sentences a process of their own costs more (loading the voice) than it saves. */
const MIN_SENTENCES_PER_PROCESS = 6;

export const FESTIVAL_CLIP_RATE = 22_050;

/**
 * Festival's Scheme heap, in cells, for a batch whose longest sentence has `longestChars`
 * characters (docs/voices.md#memory). Festival's own default (10 million cells) makes every
 * process ~340 MB, most of it a heap no sentence fills; an utterance needs roughly 500 cells a
 * character, so this gives twice that above the million the voice itself needs.
 */
export function festivalHeapCells(longestChars: number): number {
  return 1_000_000 + 1_000 * Math.max(0, Math.ceil(longestChars));
}
const VOICE_NAME = /^[a-z0-9_]+$/;

/** A Scheme string literal holding `text`: quotes and backslashes escaped, control characters gone. */
export function schemeString(text: string): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"');
  return `"${clean}"`;
}

/** The voice selection and its speaking rate: HTS voices take hts_engine's `-r`, diphone voices Duration_Stretch. */
function selectVoice(voice: FestivalVoiceDefinition): string[] {
  const lines = [`(voice_${voice.name})`];
  if (voice.rate !== 1) {
    lines.push(voice.quality === 'hts' ? `(set! hts_engine_params (append hts_engine_params (list (list "-r" ${voice.rate}))))` : `(Parameter.set 'Duration_Stretch ${1 / voice.rate})`);
  }
  return lines;
}

/** The whole batch's script: one utterance per sentence, each saved to its own WAV. */
export function batchScript(voice: FestivalVoiceDefinition, sentences: readonly string[], outWavs: readonly string[]): string {
  const lines = selectVoice(voice);
  for (const [i, text] of sentences.entries()) {
    lines.push(`(set! utt (SynthText ${schemeString(text)}))`, `(utt.wave.resample utt ${FESTIVAL_CLIP_RATE})`, `(utt.save.wave utt ${schemeString(outWavs[i]!)} 'riff)`);
  }
  return `${lines.join('\n')}\n`;
}

export class FestivalSynthesizer implements SpeechSynthesizer {
  private readonly command: string;
  private readonly maxBatch: number;
  private readonly parallelism: number;

  constructor(options: FestivalOptions = {}) {
    this.command = options.command ?? 'festival';
    this.maxBatch = Math.max(1, options.maxBatch ?? 200);
    this.parallelism = Math.max(1, options.parallelism ?? Math.min(2, os.availableParallelism()));
  }

  async synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult> {
    const [result] = await this.synthesizeBatch([text], voice, [outWav], options);
    return result!;
  }

  async synthesizeBatch(texts: readonly string[], voice: string, outWavs: readonly string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
    const definition = voiceDefinition(voice);
    if (texts.length !== outWavs.length) throw new RangeError(`${texts.length} texts but ${outWavs.length} output files`);
    const results: SynthesisResult[] = new Array<SynthesisResult>(texts.length);
    const spoken: number[] = [];
    for (const [i, text] of texts.entries()) {
      if (/[\p{L}\p{N}]/u.test(text)) {
        spoken.push(i);
      } else {
        // Nothing to say (blank, or punctuation alone, which Festival speaks as nothing): the
        // empty clip, as espeak-ng's synthesizer writes for a blank sentence.
        await writeFile(outWavs[i]!, silentWav(FESTIVAL_CLIP_RATE));
        results[i] = { durationSeconds: 0 };
      }
    }
    const lanes = Math.max(1, Math.min(this.parallelism, Math.floor(spoken.length / MIN_SENTENCES_PER_PROCESS)));
    const size = Math.min(this.maxBatch, Math.ceil(spoken.length / lanes));
    const chunks: number[][] = [];
    for (let from = 0; from < spoken.length; from += size) chunks.push(spoken.slice(from, from + size));
    let next = 0;
    const lane = async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        const clips = await this.speakBatch(
          definition,
          chunk.map((i) => normalize(texts[i]!)),
          chunk.map((i) => outWavs[i]!),
          options,
        );
        for (const [k, i] of chunk.entries()) results[i] = clips[k]!;
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, chunks.length) }, lane));
    return results;
  }

  private async speakBatch(voice: FestivalVoiceDefinition, sentences: string[], outWavs: string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
    // Festival writes to paths the script names: a private directory keeps them plain ASCII
    // whatever the caller's paths hold, and the clips are moved to the caller's files after.
    const work = await mkdtemp(path.join(os.tmpdir(), 'festival-'));
    try {
      const scratch = sentences.map((_, k) => path.join(work, `${k}.wav`));
      const chars = sentences.reduce((sum, s) => sum + s.length, 0);
      const readable = sentences.map((s) => readableText(s, voice.encoding));
      const heap = festivalHeapCells(Math.max(...readable.map((s) => s.length)));
      const { stderr } = await runProcess(this.command, ['--heap', String(heap), '--pipe'], {
        input: Buffer.from(batchScript(voice, readable, scratch), voice.encoding),
        // Loading the voice takes a few seconds; HTS then speaks roughly 20 characters in 50 ms.
        timeoutMs: timeoutFor(options, 60_000, chars / 10, 500),
        onTick: options?.onTick,
      });
      const results: SynthesisResult[] = [];
      for (const [k, file] of scratch.entries()) {
        const bytes = await readFile(file).catch(() => {
          // Festival reports a Scheme error on stderr and goes on with the next line.
          throw new Error(`festival wrote no clip for sentence ${k + 1} of ${sentences.length} (voice ${voice.name}): ${stderr.slice(-500)}`);
        });
        const info = readWavInfo(bytes);
        if (info.sampleRate !== FESTIVAL_CLIP_RATE || info.channels !== 1 || info.bitsPerSample !== 16) {
          throw new Error(`festival wrote ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample}-bit; expected ${FESTIVAL_CLIP_RATE} Hz mono 16-bit`);
        }
        await writeFile(outWavs[k]!, bytes);
        results.push({ durationSeconds: info.durationSeconds });
      }
      return results;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
}

function voiceDefinition(voice: string): FestivalVoiceDefinition {
  const definition = VOICE_NAME.test(voice) ? findFestivalVoice(voice) : undefined;
  if (!definition) throw new RangeError(`unknown Festival voice: ${voice}`);
  return definition;
}

/** A sentence as the voice's lexicon can read it: Latin-1 has no curly quotes, and what it cannot hold is not spoken. */
export function readableText(text: string, encoding: FestivalVoiceDefinition['encoding']): string {
  if (encoding === 'utf8') return text;
  return text
    .normalize('NFC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[^\u0000-\u00ff]/g, ' ');
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
