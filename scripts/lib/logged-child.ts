import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

// A server the scripts start for development and tests (the Temporal dev server, versitygw):
// its output goes to a log file, a failed start names that file, and stop() ends it with
// SIGTERM, then SIGKILL after five seconds.

export interface LoggedChild {
  process: ChildProcess;
  /** Ends the process (a no-op once it has exited). */
  stop(): Promise<void>;
  /**
   * Runs `probe` until it resolves, every `intervalMs`; throws (and stops the process) when the
   * process exits first or `timeoutMs` passes, naming `what` and the log file.
   */
  waitUntilReady(what: string, probe: () => Promise<void>, timing: { timeoutMs: number; intervalMs: number }): Promise<void>;
}

export function spawnLogged(command: string, args: string[], options: { logFile: string; env?: NodeJS.ProcessEnv }): LoggedChild {
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const stop = async () => {
    if (exited) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  };

  const waitUntilReady: LoggedChild['waitUntilReady'] = async (what, probe, { timeoutMs, intervalMs }) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exited) throw new Error(`${what} exited during start; see ${options.logFile}`);
      try {
        await probe();
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          await stop();
          throw new Error(`${what} not ready after ${timeoutMs / 1000} s (${String(err)}); see ${options.logFile}`);
        }
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    }
  };

  return { process: child, stop, waitUntilReady };
}
