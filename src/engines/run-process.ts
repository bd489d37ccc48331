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
  const options = { ...given, signal: combinedSignal(given.signal) };
  const end = engineProcessSeconds.startTimer({ engine: path.basename(command) });
  return runChild(command, args, options).then(
    (result) => {
      end({ outcome: 'ok' });
      return result;
    },
    (err: unknown) => {
      end({ outcome: err instanceof ProcessError ? (err.notFound ? 'not_found' : err.timedOut ? 'timed_out' : options.signal?.aborted ? 'aborted' : 'failed') : 'failed' });
      throw err;
    },
  );
}

function runChild(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    const ticker = options.onTick ? setInterval(options.onTick, 5000) : undefined;
    const abort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.signal?.aborted) abort();

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.stdin.on('error', () => undefined); // the process may exit before reading its input
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (ticker) clearInterval(ticker);
      options.signal?.removeEventListener('abort', abort);
      const notFound = err.code === 'ENOENT';
      reject(new ProcessError(`${command}: ${notFound ? 'not installed' : err.message}`, command, null, stderr, false, notFound));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (ticker) clearInterval(ticker);
      options.signal?.removeEventListener('abort', abort);
      if (code === 0 && !timedOut && !options.signal?.aborted) {
        resolve({ stdout: Buffer.concat(stdout), stderr, durationMs: Date.now() - started });
        return;
      }
      const why = timedOut ? `timed out after ${options.timeoutMs} ms` : options.signal?.aborted ? 'aborted' : `exited with code ${code}`;
      reject(new ProcessError(`${command} ${why}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, command, code, stderr, timedOut, false));
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
