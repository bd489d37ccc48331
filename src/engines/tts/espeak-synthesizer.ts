import { readFile, writeFile } from 'node:fs/promises';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import { batchSsml, clipCount, sentenceClip, SEPARATOR_MIN_MS } from './batch-ssml';
import { EndPauses, sentenceEnding } from './end-pause';
import type { SpeechSynthesizer, SynthesisResult } from './speech-synthesizer';
import { splitAtSilence } from './split-at-silence';
import { pcmWav, readWavInfo, silentWav } from './wav-file';

export interface EspeakOptions {
  command?: string;
  /** Words per minute; espeak-ng's default is 175. */
  wordsPerMinute?: number;
  /** Most sentences one espeak-ng process speaks; bounds the memory a batch WAV takes. */
  maxBatch?: number;
}

const ESPEAK_RATE = 22_050;
const VOICE_NAME = /^[A-Za-z0-9_+-]+$/;
/** Bare separators vary by a sample or two; a difference under this is no lead-in. */
const LEAD_IN_NOISE_SAMPLES = 64;
const SAMPLES_PER_MS = ESPEAK_RATE / 1000;

export class EspeakSynthesizer implements SpeechSynthesizer {
  private readonly command: string;
  private readonly rateArgs: string[];
  private readonly maxBatch: number;
  private readonly endPauses = new EndPauses((text, voice) => this.speak(text, voice, false));

  constructor(options: EspeakOptions = {}) {
    this.command = options.command ?? 'espeak-ng';
    this.rateArgs = options.wordsPerMinute !== undefined ? ['-s', String(Math.round(options.wordsPerMinute))] : [];
    this.maxBatch = Math.max(1, options.maxBatch ?? 100);
  }

  async synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult> {
    checkVoice(voice);
    const spoken = normalize(text);
    if (!spoken) {
      await writeFile(outWav, silentWav(ESPEAK_RATE));
      return { durationSeconds: 0 };
    }
    // Text goes through stdin: as an argument, a sentence starting with '-' would be an option.
    await runProcess(this.command, ['-v', voice, ...this.rateArgs, '-w', outWav, '--stdin'], {
      input: `${spoken}\n`,
      timeoutMs: timeoutFor(options, 30_000, spoken.length / 10, 200),
      onTick: options?.onTick,
    });
    return { durationSeconds: readWavInfo(await readFile(outWav)).durationSeconds };
  }

  /**
   * One espeak-ng process per `maxBatch` sentences instead of one per sentence: start-up was most
   * of the time a short sentence took. Each clip is what `synthesize` gives for that sentence
   * alone, to within a few milliseconds (the speech is the same; the silence around it is rebuilt
   * to the length espeak-ng gives a sentence on its own).
   */
  async synthesizeBatch(texts: readonly string[], voice: string, outWavs: readonly string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
    checkVoice(voice);
    if (texts.length !== outWavs.length) throw new RangeError(`${texts.length} texts but ${outWavs.length} output files`);
    const results: SynthesisResult[] = new Array<SynthesisResult>(texts.length);
    const batched: number[] = [];
    const alone: number[] = [];
    for (const [i, text] of texts.entries()) {
      const spoken = normalize(text);
      if (!spoken) {
        // Not sent to espeak-ng at all: a blank clip must not become a missing piece in the split.
        await writeFile(outWavs[i]!, silentWav(ESPEAK_RATE));
        results[i] = { durationSeconds: 0 };
      } else if (/[\p{L}\p{N}]/u.test(spoken)) {
        batched.push(i);
      } else {
        // Punctuation only: espeak-ng makes silence or a pause of it, which the split cannot tell
        // from a separator. Rare, so it keeps a process of its own.
        alone.push(i);
      }
    }
    for (let from = 0; from < batched.length; from += this.maxBatch) {
      const chunk = batched.slice(from, from + this.maxBatch);
      const clips = await this.speakBatch(
        chunk.map((i) => normalize(texts[i]!)),
        voice,
        chunk.map((i) => outWavs[i]!),
        options,
      );
      for (const [k, i] of chunk.entries()) results[i] = clips[k]!;
    }
    for (const i of alone) results[i] = await this.synthesize(texts[i]!, voice, outWavs[i]!, options);
    return results;
  }

  private async speakBatch(sentences: string[], voice: string, outWavs: string[], options?: EngineCallOptions): Promise<SynthesisResult[]> {
    const chars = sentences.reduce((sum, s) => sum + s.length, 0);
    const [pcm, ...endPauses] = await Promise.all([
      this.speak(batchSsml(sentences), voice, true, timeoutFor(options, 30_000, chars / 10, 200), options?.onTick),
      ...sentences.map((s) => this.endPauses.samples(voice, sentenceEnding(s))),
    ]);
    const spans = splitAtSilence(pcm, Math.round(SEPARATOR_MIN_MS * SAMPLES_PER_MS));
    // Anything but one clip per probe and sentence (a sentence espeak-ng spoke as nothing, a pause
    // inside one as long as a separator) leaves no safe way to assign the pieces, so this batch is
    // spoken one sentence at a time instead.
    if (spans.length !== clipCount(sentences.length)) {
      return Promise.all(sentences.map((s, k) => this.synthesize(s, voice, outWavs[k]!, options)));
    }
    // The gap between the two opening probes, less the probe's own leading silence (the zeros
    // at the very start), is a bare separator; a sentence's gap beyond that is its lead-in.
    const bareSeparator = spans[1]!.zerosBefore - spans[0]!.zerosBefore;
    const results: SynthesisResult[] = [];
    for (const [k, outWav] of outWavs.entries()) {
      const span = spans[sentenceClip(k)]!;
      const extra = span.zerosBefore - bareSeparator;
      const leadIn = extra >= LEAD_IN_NOISE_SAMPLES ? extra : 0;
      const samples = leadIn + (span.end - span.start) + endPauses[k]!;
      const clip = Buffer.alloc(samples * 2);
      pcm.copy(clip, leadIn * 2, span.start * 2, span.end * 2);
      await writeFile(outWav, pcmWav(ESPEAK_RATE, clip));
      results.push({ durationSeconds: samples / ESPEAK_RATE });
    }
    return results;
  }

  /** Runs espeak-ng on `input` (plain text or SSML) and returns the PCM samples it wrote. */
  private async speak(input: string, voice: string, ssml: boolean, timeoutMs = 30_000, onTick?: () => void): Promise<Buffer> {
    const { stdout } = await runProcess(this.command, ['-v', voice, ...this.rateArgs, ...(ssml ? ['-m'] : []), '--stdout', '--stdin'], {
      input: `${input}\n`,
      timeoutMs,
      onTick,
    });
    const info = readWavInfo(stdout);
    if (info.sampleRate !== ESPEAK_RATE || info.channels !== 1 || info.bitsPerSample !== 16) {
      throw new Error(`espeak-ng wrote ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample}-bit; expected 22050 Hz mono 16-bit`);
    }
    return stdout.subarray(info.dataOffset, info.dataOffset + info.dataBytes - (info.dataBytes % 2));
  }
}

function checkVoice(voice: string): void {
  if (!VOICE_NAME.test(voice) || voice.startsWith('-')) throw new RangeError(`invalid espeak-ng voice: ${voice}`);
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
