import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { ProcessError } from '../run-process';
import { ApertiumPipelines, type Pipeline } from './apertium-pipelines';
import { readMarks, type MarkedWord } from './apertium-marks';
import { apertiumPlaceholders, isPlaceholderWord } from './apertium-placeholders';
import { prepareEnglish } from './english-preprocess';
import { modeSource, modeTarget } from './mode-languages';
import { flattenSegment, joinSegments, splitSegments } from './segment-batch';
import { SharedSteps } from './shared-steps';
import { prepareForNextStep, tidyTranslation } from './target-postprocess';
import { TranslationMismatchError, UNTRANSLATED_EXAMPLES, type TranslateOptions, type Translator, type UntranslatedWords } from './translator';

export interface ApertiumOptions {
  command?: string;
  /** How long a route's pipelines stay started after a call that asked for it (TranslateOptions.stayWarm); 0 or unset: none. */
  warmSeconds?: number;
  /** When they start after that call: SPARE_DELAY_MS unless a test says otherwise. */
  spareDelayMs?: number;
}

/** A regeneration renders for 1.5–3 s after its translation (docs/benchmarks.md#the-regeneration-figure); its spares start after that. */
const SPARE_DELAY_MS = 5000;

const MODE_NAME = /^[A-Za-z0-9_-]+$/;

export class ApertiumTranslator implements Translator {
  private readonly pipelines: ApertiumPipelines;
  private readonly sharedSteps = new SharedSteps<string[]>();

  constructor(options: ApertiumOptions = {}) {
    this.pipelines = new ApertiumPipelines({
      command: options.command ?? 'apertium',
      warmMs: (options.warmSeconds ?? 0) * 1000,
      spareDelayMs: options.spareDelayMs ?? SPARE_DELAY_MS,
    });
  }

  suspendWarm(): () => void {
    return this.pipelines.suspendSpares();
  }

  /** Ends the pipelines kept warm. */
  close(): void {
    this.pipelines.close();
  }

  async translate(texts: readonly string[], modes: readonly string[], options?: TranslateOptions): Promise<string[]> {
    if (modes.length === 0) throw new RangeError('at least one apertium mode is required');
    for (const mode of modes) {
      // A mode is an argument, never a shell string, but one starting with '-' would be read as a flag.
      if (!MODE_NAME.test(mode) || mode.startsWith('-')) throw new RangeError(`invalid apertium mode: ${mode}`);
    }
    // Terms are swapped for placeholders before anything else reads the text, so neither the
    // English rewrites nor apertium nor the tidying can touch them (docs/glossaries.md#enforcement).
    const terms = options?.protectedTerms;
    if (terms && terms.length !== texts.length) throw new RangeError(`${terms.length} protected-term lists for ${texts.length} texts`);
    const flat = texts.map((text, i) => flattenSegment(terms?.[i]?.length ? apertiumPlaceholders.encode(text, terms[i]!) : text));
    // Blank segments would make two separators collapse into one; they translate to blank anyway.
    const positions = flat.flatMap((text, index) => (text ? [index] : []));
    if (positions.length === 0) {
      options?.onUntranslated?.({ words: 0, pivotWords: 0, examples: [] });
      return flat.map(() => '');
    }
    const fromEnglish = modeSource(modes[0]!) === 'en';
    const sources = positions.map((index) => (fromEnglish ? prepareEnglish(flat[index]!) : flat[index]!));

    // Each step's marks are read and removed before the next step, so a pivot word that the
    // second step does not know is told apart from an English word passed on by the first.
    let current = sources;
    const marked: MarkedWord[][][] = [];
    // An editor's call starts every step at once: a later one loads its dictionaries while the
    // first translates. A whole dub starts each in turn, and the spares give it their memory, so
    // languages dubbed side by side hold one pipeline each (docs/design.md#warm-translation).
    const interactive = options?.stayWarm ?? false;
    const endBatch = interactive ? undefined : this.pipelines.suspendSpares();
    const pipelines: Pipeline[] = interactive ? modes.map((mode) => this.pipelines.take(mode, { spare: true })) : [];
    try {
      for (const [step, mode] of modes.entries()) {
        const output = interactive ? await this.runMode(pipelines[step]!, current, mode, options) : await this.runShared(current, mode, options);
        const read = output.map((text, i) => readMarks(text, current[i]!));
        marked.push(read.map((r) => (terms ? r.words.filter((w) => !isPlaceholderWord(w.word)) : r.words)));
        // A pivot's text is mended like a final one before the next step reads it: a glued
        // "Losiento" would otherwise reach French or Italian as an unknown Spanish word.
        const isPivot = step < modes.length - 1;
        current = read.map((r, i) => (isPivot ? prepareForNextStep(r.text, { language: modeTarget(mode), source: sources[i]! }, modeTarget(modes[step + 1]!)) : r.text));
      }
    } finally {
      for (const pipeline of pipelines) pipeline.discard();
      endBatch?.();
      if (interactive) this.pipelines.keepWarm(modes);
    }
    const language = modeTarget(modes[modes.length - 1]!);
    const tidied = current.map((text, i) => tidyTranslation(text, { language, source: sources[i]! }));
    options?.onUntranslated?.(countUntranslated(marked));

    const result = flat.map(() => '');
    positions.forEach((index, i) => {
      const own = terms?.[index];
      result[index] = own?.length ? apertiumPlaceholders.decode(tidied[i]!, own) : tidied[i]!;
    });
    return result;
  }

  /**
   * A dub's step, shared with the identical step of another language dubbed at the same time
   * (shared-steps.ts): started in its turn, and ended when it is done.
   */
  private runShared(texts: string[], mode: string, options?: EngineCallOptions): Promise<string[]> {
    const start = async () => {
      const pipeline = this.pipelines.take(mode, { spare: false });
      try {
        return await this.runMode(pipeline, texts, mode, { ...options, onTick: undefined });
      } finally {
        pipeline.discard();
      }
    };
    return this.sharedSteps.run(`${mode}\n${joinSegments(texts)}`, start, options?.onTick);
  }

  private async runMode(pipeline: Pipeline, texts: string[], mode: string, options?: EngineCallOptions): Promise<string[]> {
    const input = joinSegments(texts);
    // No -u: the untranslated-word marks are wanted, to count (apertium-marks.ts removes them).
    const { stdout, stderr } = await pipeline.run(input, {
      // apertium handles tens of kilobytes a second; the base covers loading the mode's data.
      timeoutMs: timeoutFor(options, 30_000, input.length / 1000, 1000),
      onTick: options?.onTick,
    });
    const text = stdout.toString('utf8');
    if (!text.trim()) {
      throw new ProcessError(`apertium ${mode} produced no output: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, 'apertium', 0, stderr, false, false);
    }
    const out = splitSegments(text);
    if (out.length !== texts.length) throw new TranslationMismatchError(mode, texts.length, out.length);
    return out;
  }
}

/**
 * marked[step][segment]: the words each step left untranslated. A later step's mark on a word
 * the first step had already left (the English word passed on) counts once; any other mark of a
 * later step is a pivot-language word.
 */
export function countUntranslated(marked: readonly (readonly (readonly MarkedWord[])[])[]): UntranslatedWords {
  let words = 0;
  let pivotWords = 0;
  const examples = new Set<string>();
  const segments = marked[0]?.length ?? 0;
  for (let segment = 0; segment < segments; segment++) {
    const passedOn = new Map<string, number>();
    marked.forEach((step, stepIndex) => {
      for (const { word } of step[segment] ?? []) {
        const key = word.toLowerCase();
        const left = passedOn.get(key) ?? 0;
        if (stepIndex > 0 && left > 0) {
          passedOn.set(key, left - 1);
          continue;
        }
        words++;
        if (stepIndex > 0) pivotWords++;
        else passedOn.set(key, left + 1);
        if (examples.size < UNTRANSLATED_EXAMPLES) examples.add(word);
      }
    });
  }
  return { words, pivotWords, examples: [...examples] };
}
