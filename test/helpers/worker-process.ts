import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';

// Real worker processes (`src/worker/main.ts`, as deployed), for tests of a fleet of them.

const ROOT = path.resolve(__dirname, '..', '..');

export interface WorkerProcess {
  process: ChildProcess;
  /** Prefix of the worker's Temporal identity and worker_capabilities.worker_id. */
  identityPrefix: string;
  /** Sends SIGTERM and waits for a clean exit (in-flight tasks finish, the record is retired). */
  stop(): Promise<number | null>;
}

export function startWorkerProcess(env: Record<string, string>, logFile?: string): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', logFile ? 'pipe' : 'ignore'],
  });
  if (logFile) child.stderr?.pipe(createWriteStream(logFile));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    identityPrefix: `${child.pid}@`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Makes a spoken test clip in a child process, so the calling process spawns no engine itself. */
export async function spokenClipOutOfProcess(dir: string, text: string, seconds: number): Promise<Buffer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/spoken-clip.cli.ts', dir, String(seconds), text], { cwd: ROOT, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the clip maker exited with ${code}`);
  return readFileSync(path.join(dir, 'clip.mp4'));
}
