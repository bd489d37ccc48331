import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { timeoutFor, type EngineCallOptions } from '../engine-call';
import { ProcessError, runProcess } from '../run-process';
import { flattenSegment, joinSegments, splitSegments } from './segment-batch';
import { TranslationMismatchError, type Translator } from './translator';

export interface ApertiumOptions {
  command?: string;
}

const MODE_NAME = /^[A-Za-z0-9_-]+$/;

export class ApertiumTranslator implements Translator {
  private readonly command: string;

  constructor(options: ApertiumOptions = {}) {
    this.command = options.command ?? 'apertium';
  }

  async translate(texts: readonly string[], modes: readonly string[], options?: EngineCallOptions): Promise<string[]> {
    if (modes.length === 0) throw new RangeError('at least one apertium mode is required');
    for (const mode of modes) {
      // A mode is an argument, never a shell string, but one starting with '-' would be read as a flag.
      if (!MODE_NAME.test(mode) || mode.startsWith('-')) throw new RangeError(`invalid apertium mode: ${mode}`);
    }
    const flat = texts.map(flattenSegment);
    // Blank segments would make two separators collapse into one; they translate to blank anyway.
    const positions = flat.flatMap((text, index) => (text ? [index] : []));
    let current = positions.map((index) => flat[index]!);
    if (current.length === 0) return flat.map(() => '');

    for (const mode of modes) current = await this.runMode(current, mode, options);

    const result = flat.map(() => '');
    positions.forEach((index, i) => {
      result[index] = current[i]!;
    });
    return result;
  }

  private async runMode(texts: string[], mode: string, options?: EngineCallOptions): Promise<string[]> {
    const input = joinSegments(texts);
    // The input goes in a file, not stdin: the apertium script reopens /dev/stdin, which fails
    // when stdin is the socket Node gives a child, and the pipeline still exits 0 with no output.
    const work = await mkdtemp(path.join(os.tmpdir(), 'apertium-'));
    try {
      const inFile = path.join(work, 'input.txt');
      await writeFile(inFile, input, 'utf8');
      const { stdout, stderr } = await runProcess(this.command, ['-u', mode, inFile], {
        // apertium handles tens of kilobytes a second; the base covers loading the mode's data.
        timeoutMs: timeoutFor(options, 30_000, input.length / 1000, 1000),
        onTick: options?.onTick,
        // Apertium's tools read and write UTF-8 only when the locale says so.
        env: { ...process.env, LC_ALL: 'C.UTF-8' },
      });
      const text = stdout.toString('utf8');
      if (!text.trim()) {
        throw new ProcessError(`apertium ${mode} produced no output: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, this.command, 0, stderr, false, false);
      }
      const out = splitSegments(text);
      if (out.length !== texts.length) throw new TranslationMismatchError(mode, texts.length, out.length);
      return out;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
}
