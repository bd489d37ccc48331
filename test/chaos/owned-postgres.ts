import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// A PostgreSQL this test owns (its own data dir and port), never the machine's shared server:
// started, stopped and started again on the same data, to take the database away mid-pipeline.

const ROOT = path.resolve(__dirname, '..', '..');

export interface OwnedPostgres {
  url: string;
  /** Shuts the server down (clients see 57P01, then refused connections) and waits for it. */
  stop(): Promise<void>;
}

export async function startOwnedPostgres(dir: string, port: number): Promise<OwnedPostgres> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/chaos/embedded-postgres.cli.ts', dir, String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('\n')) resolve(stdout.trim());
    });
    void exited.then((code) => reject(new Error(`embedded PostgreSQL exited with ${code} before it was ready: ${stderr}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
