import { stat } from 'node:fs/promises';
import path from 'node:path';
import { POCKETSPHINX_MODEL_ROOT } from '../capabilities';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { runProcess } from '../run-process';
import { groupWords, type GroupingOptions } from './group-words';
import { parsePocketsphinxWords } from './pocketsphinx-output';
import type { SpeechRecognizer, Transcript } from './speech-recognizer';

export interface PocketsphinxOptions extends GroupingOptions {
  command?: string;
  /** Directory holding `<model>/` (acoustic model), `<model>.lm.bin` and `cmudict-<model>.dict`. */
  modelRoot?: string;
  model?: string;
}

export class PocketsphinxRecognizer implements SpeechRecognizer {
  private readonly command: string;
  private readonly modelArgs: string[];
  private readonly grouping: GroupingOptions;

  constructor(options: PocketsphinxOptions = {}) {
    this.command = options.command ?? 'pocketsphinx_continuous';
    const root = options.modelRoot ?? POCKETSPHINX_MODEL_ROOT;
    const model = options.model ?? 'en-us';
    // Named explicitly rather than relying on the build's compiled-in default model path.
    this.modelArgs = [
      '-hmm', path.join(root, model, model),
      '-lm', path.join(root, model, `${model}.lm.bin`),
      '-dict', path.join(root, model, `cmudict-${model}.dict`),
    ];
    this.grouping = { minPauseSeconds: options.minPauseSeconds, maxSegmentSeconds: options.maxSegmentSeconds };
  }

  async transcribe(wav16k: string, options?: EngineCallOptions): Promise<Transcript> {
    // pocketsphinx decodes at about a quarter of real time on one core; allow 3× real time
    // plus start-up. 16 kHz 16-bit mono is 32,000 bytes a second.
    const seconds = (await stat(wav16k)).size / 32_000;
    const { stdout } = await runProcess(
      this.command,
      ['-infile', wav16k, '-time', 'yes', '-logfn', '/dev/null', ...this.modelArgs],
      { timeoutMs: timeoutFor(options, 30_000, seconds, 3000), onTick: options?.onTick },
    );
    return { segments: groupWords(parsePocketsphinxWords(stdout.toString('utf8')), this.grouping) };
  }
}
