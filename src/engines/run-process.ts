import { spawn } from 'node:child_process';
import path from 'node:path';
import { engineProcessSeconds } from '../metrics/metrics';
import { combinedSignal } from './process-cancellation';

// Every engine is a child process started from an argument array (never a shell string, so no
// file name can inject a command) with a hard timeout, so a stuck engine cannot hang a worker.

export interface RunOptions {
  input?: string | Buffer;
  timeoutMs: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called periodically while the process runs; activities pass their heartbeat here. */
  onTick?: () => void;
  /**
   * Aborting kills the process (SIGKILL); a parallel caller stops the siblings of a failure. The
   * cancellation of the activity the call runs in applies too (process-cancellation.ts).
   */
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  durationMs: number;
}

export class ProcessError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly timedOut: boolean,
    readonly notFound: boolean,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

const STDERR_TAIL = 4000;

export function runProcess(command: string, args: readonly string[], given: RunOptions): Promise<RunResult> {
  return startProcess(command, args, given).run(given);
}

/** What a started process is given when it is put to work: all of RunOptions but where and how it runs. */
export type WorkOptions = Omit<RunOptions, 'cwd' | 'env'>;

/**
 * A process started ahead of its work (a warm apertium pipeline loading its dictionaries while it
 * waits, src/engines/translate/apertium-pipelines.ts). Its timeout, cancellation and metric run
 * from `run`, when its input arrives; a process that is never run ends when it is killed, or when
 * its stdin closes with the Node process that holds it.
 */
export interface StartedProcess {
  /** Writes the input, closes stdin and waits for the process to exit; once per process. */
  run(options: WorkOptions): Promise<RunResult>;
  /** False once the process has exited (or failed to start): it can no longer be run. */
  readonly alive: boolean;
  kill(): void;
  /** Lets the Node process exit while this one waits (a spare nobody is waiting on). */
  unref(): void;
}

export function startProcess(command: string, args: readonly string[], how: Pick<RunOptions, 'cwd' | 'env'> & { engine?: string } = {}): StartedProcess {
  const child = spawn(command, args, { cwd: how.cwd, env: how.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stderr = '';
  let alive = true;
  let startError: NodeJS.ErrnoException | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      startError = err;
      alive = false;
      resolve(null);
    });
    child.on('close', (code) => {
      alive = false;
      resolve(code);
    });
  });
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  child.stdin.on('error', () => undefined); // the process may exit before reading its input
  const kill = () => {
    if (alive) child.kill('SIGKILL');
  };
  return {
    get alive() {
      return alive;
    },
    kill,
    unref() {
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    },
    run(given) {
      const options = { ...given, signal: combinedSignal(given.signal) };
      child.ref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { ref?: () => void }).ref?.();
      const end = engineProcessSeconds.startTimer({ engine: how.engine ?? path.basename(command) });
      const started = Date.now();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      const ticker = options.onTick ? setInterval(options.onTick, 5000) : undefined;
      options.signal?.addEventListener('abort', kill, { once: true });
      if (options.signal?.aborted) kill();
      if (alive) child.stdin.end(options.input ?? '');
      return exited.then((code) => {
        clearTimeout(timer);
        if (ticker) clearInterval(ticker);
        options.signal?.removeEventListener('abort', kill);
        const failure = outcome(command, { code, startError, timedOut, aborted: options.signal?.aborted ?? false, timeoutMs: options.timeoutMs, stderr });
        end({ outcome: failure ? (failure.notFound ? 'not_found' : failure.timedOut ? 'timed_out' : options.signal?.aborted ? 'aborted' : 'failed') : 'ok' });
        if (failure) throw failure;
        return { stdout: Buffer.concat(stdout), stderr, durationMs: Date.now() - started };
      });
    },
  };
}

/** The ProcessError a run ended with, or null when it succeeded. */
function outcome(command: string, run: { code: number | null; startError: NodeJS.ErrnoException | null; timedOut: boolean; aborted: boolean; timeoutMs: number; stderr: string }): ProcessError | null {
  if (run.startError) {
    const notFound = run.startError.code === 'ENOENT';
    return new ProcessError(`${command}: ${notFound ? 'not installed' : run.startError.message}`, command, null, run.stderr, false, notFound);
  }
  if (run.code === 0 && !run.timedOut && !run.aborted) return null;
  const why = run.timedOut ? `timed out after ${run.timeoutMs} ms` : run.aborted ? 'aborted' : `exited with code ${run.code}`;
  return new ProcessError(`${command} ${why}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`, command, run.code, run.stderr, run.timedOut, false);
}
