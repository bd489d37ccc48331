import { readFile, writeFile } from 'node:fs/promises';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import type { SpeechSynthesizer, SynthesisResult } from './speech-synthesizer';
import { readWavInfo, silentWav } from './wav-file';

export interface EspeakOptions {
  command?: string;
  /** Words per minute; espeak-ng's default is 175. */
  wordsPerMinute?: number;
}

const ESPEAK_RATE = 22_050;
const VOICE_NAME = /^[A-Za-z0-9_+-]+$/;

export class EspeakSynthesizer implements SpeechSynthesizer {
  private readonly command: string;
  private readonly rateArgs: string[];

  constructor(options: EspeakOptions = {}) {
    this.command = options.command ?? 'espeak-ng';
    this.rateArgs = options.wordsPerMinute !== undefined ? ['-s', String(Math.round(options.wordsPerMinute))] : [];
  }

  async synthesize(text: string, voice: string, outWav: string, options?: EngineCallOptions): Promise<SynthesisResult> {
    if (!VOICE_NAME.test(voice) || voice.startsWith('-')) throw new RangeError(`invalid espeak-ng voice: ${voice}`);
    const spoken = text.replace(/\s+/g, ' ').trim();
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
}
