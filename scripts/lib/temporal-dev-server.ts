import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { WORKFLOW_SEARCH_ATTRIBUTES } from '../../src/shared/search-attributes';
import { spawnLogged } from './logged-child';
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
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'warn'];
  if (options.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const name of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);

  const server = spawnLogged(options.cli, args, { logFile: options.logFile });
  const address = `127.0.0.1:${options.port}`;
  await server.waitUntilReady(
    'temporal dev server',
    async () => {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: 'default' });
      } finally {
        await connection.close();
      }
    },
    { timeoutMs: 60_000, intervalMs: 300 },
  );
  return { address, process: server.process, stop: server.stop };
}
