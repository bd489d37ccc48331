import path from 'node:path';
import { ProcessError, startProcess, type RunResult, type StartedProcess, type WorkOptions } from '../run-process';

// Apertium pipelines started before their input arrives (docs/design.md#warm-translation). Most
// of what a short translation costs is each tool loading its dictionaries: about 0.6–1 s a mode
// on this project's machines, against 0.1–0.2 s to translate a sentence once they are loaded.
// So an editor's call starts every mode of its route at once (the second step loads while the
// first one translates) and leaves one started pipeline per mode behind, once its render is done,
// for the next edit, for as long as the configured warm window. A spare that is never used is
// killed at the end of that window or when a dub's heavy step begins; one whose worker dies ends
// too, as its stdin closes.

/**
 * apertium reopens /dev/stdin, which fails when stdin is the socket Node gives a child (it then
 * exits 0 with no output): a `cat` in front hands it a pipe. "$0" is the apertium command.
 */
const SHIM = 'cat | exec "$0" "$@"';
/** What bash answers for a command it cannot find. */
const NOT_FOUND = 127;

export interface PipelineOptions {
  /** The apertium command. */
  command: string;
  /** How long a spare pipeline waits for a next call; 0 keeps none. */
  warmMs: number;
  /**
   * How long after the call that asked for it a spare starts: the call's regeneration is still
   * rendering on the same cores for a few seconds, and loading dictionaries beside it would slow
   * it down, while the next edit is tens of seconds away at the soonest.
   */
  spareDelayMs: number;
}

interface Spare {
  /** Null until it starts (spareDelayMs after the call that asked for it). */
  process: StartedProcess | null;
  /** Starts it, then ends it at the end of the warm window. */
  timer: NodeJS.Timeout;
}

export class ApertiumPipelines {
  private readonly spares = new Map<string, Spare>();
  /** A dub's heavy steps running now (its translation, transcription, render): no spare lives beside them. */
  private suspensions = 0;

  constructor(private readonly options: PipelineOptions) {}

  /**
   * A dub's heavy step begins: the spares are ended and none starts until it is over. A worker's
   * peak memory is its dubs' steps; spares only use what they leave. Returns the call that says
   * the step is over.
   */
  suspendSpares(): () => void {
    this.suspensions++;
    this.close();
    let ended = false;
    return () => {
      if (!ended) this.suspensions--;
      ended = true;
    };
  }

  /**
   * A pipeline of `mode` ready for its input: started now, or the spare when `spare` allows it.
   * Spares are kept for an editor's next edit: a whole dub, where loading is a rounding error,
   * leaves them to it.
   */
  take(mode: string, { spare: useSpare }: { spare: boolean }): Pipeline {
    const kept = useSpare ? this.spares.get(mode) : undefined;
    if (kept) {
      this.spares.delete(mode);
      clearTimeout(kept.timer);
    }
    const warm = kept?.process?.alive ? kept.process : null;
    const process = warm ?? this.start(mode);
    return { run: (input, options) => this.runOn(process, input, options), discard: () => process.kill(), warm: warm !== null };
  }

  /** A spare of each mode that has none, started shortly to wait for the next call for up to the warm window. */
  keepWarm(modes: readonly string[]): void {
    if (this.options.warmMs <= 0 || this.suspensions > 0) return;
    for (const mode of modes) {
      const kept = this.spares.get(mode);
      if (kept && (kept.process === null || kept.process.alive)) continue;
      const spare: Spare = { process: null, timer: setTimeout(() => this.startSpare(mode, spare), this.options.spareDelayMs) };
      spare.timer.unref();
      this.spares.set(mode, spare);
      if (this.options.spareDelayMs === 0) {
        clearTimeout(spare.timer);
        this.startSpare(mode, spare);
      }
    }
  }

  private startSpare(mode: string, spare: Spare): void {
    if (this.spares.get(mode) !== spare) return;
    if (this.suspensions > 0) {
      this.spares.delete(mode);
      return;
    }
    const process = this.start(mode);
    process.unref();
    spare.process = process;
    spare.timer = setTimeout(() => {
      if (this.spares.get(mode) === spare) this.spares.delete(mode);
      process.kill();
    }, this.options.warmMs);
    spare.timer.unref();
  }

  /** Kills every spare (a worker shutting down, a test ending). */
  close(): void {
    for (const { process, timer } of this.spares.values()) {
      clearTimeout(timer);
      process?.kill();
    }
    this.spares.clear();
  }

  private start(mode: string): StartedProcess {
    // Apertium's tools read and write UTF-8 only when the locale says so.
    return startProcess('bash', ['-c', SHIM, this.options.command, mode], {
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
      engine: path.basename(this.options.command),
    });
  }

  private async runOn(process: StartedProcess, input: string, options: WorkOptions): Promise<RunResult> {
    try {
      return await process.run({ ...options, input });
    } catch (err) {
      // The shim runs apertium, so a missing one is bash's 127, not a spawn error: told as one.
      if (err instanceof ProcessError && err.exitCode === NOT_FOUND) {
        throw new ProcessError(`${this.options.command}: not installed`, this.options.command, null, err.stderr, false, true);
      }
      throw err;
    }
  }
}

export interface Pipeline {
  run(input: string, options: Omit<WorkOptions, 'input'>): Promise<RunResult>;
  /** Ends a pipeline that will not be run (an earlier step failed). */
  discard(): void;
  /** It was a spare, started by an earlier call. */
  warm: boolean;
}
