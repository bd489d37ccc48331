import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { WORKFLOW_SEARCH_ATTRIBUTES } from '../../src/shared/search-attributes';
import { resolveBinary } from './resolve-binary';

// Starts the real Temporal dev server (`temporal server start-dev`) from the CLI that
// scripts/temporal-cli.sh resolves or builds. Used by `make dev` and by the jest global setup.

export const SEARCH_ATTRIBUTES = WORKFLOW_SEARCH_ATTRIBUTES.map((key) => key.name);

export function resolveTemporalCli(): string {
  return resolveBinary('temporal-cli.sh');
}

export interface DevServerOptions {
  cli: string;
  port: number;
  /** null runs the server headless (tests); otherwise the Web UI listens here. */
  uiPort: number | null;
  /** SQLite file for history that survives restarts; null keeps everything in memory. */
  dbFile: string | null;
  logFile: string;
  /** Server settings (`--dynamic-config-value`), e.g. a lowered history limit for a test. */
  dynamicConfig?: Record<string, number | string | boolean>;
}

export interface DevServer {
  address: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startTemporalDevServer(options: DevServerOptions): Promise<DevServer> {
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'warn'];
  if (options.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const name of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);

  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(options.cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const address = `127.0.0.1:${options.port}`;

  let exited = false;
  child.once('exit', () => { exited = true; });
  const stop = async () => {
    if (exited) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`temporal dev server exited during start; see ${options.logFile}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.describeNamespace({ namespace: 'default' });
      await connection.close();
      return { address, process: child, stop };
    } catch (err) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`temporal dev server not ready after 60 s (${String(err)}); see ${options.logFile}`);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
