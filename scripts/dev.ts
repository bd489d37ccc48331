import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDb } from '../src/db/create-db';
import { migrateToLatest } from '../src/db/migrator';
import { seedDev } from '../db/seeds/dev.seed';
import { waitUntilDubbable } from './lib/dubbable';
import { freePort, isPortOpen } from './lib/free-port';
import { ensureDevDatabase, type DevDatabase } from './lib/dev-database';
import { ensureDevS3, withDevS3Defaults } from './lib/dev-s3';
import type { S3Server } from './lib/s3-server';
import { resolveTemporalCli, startTemporalDevServer, type DevServer } from './lib/temporal-dev-server';

// `make dev`: everything on one machine, no Docker. PostgreSQL (yours, the local server, or an
// embedded one), migrations and the dev seed, the Temporal dev server with its Web UI, then the
// API and the worker. Storage is the local disk; `STORAGE_DRIVER=s3 make dev` also starts an
// S3-compatible server (versitygw) with its web console. The banner comes once a project can be
// dubbed: the worker polls and the API offers its locales (scripts/lib/dubbable.ts). Ctrl-C stops
// every process this started.

const ROOT = path.resolve(__dirname, '..');
const DEV_DIR = path.join(ROOT, '.dev');
const CREDENTIALS_FILE = path.join(DEV_DIR, 'credentials.json');

const step = (message: string) => process.stdout.write(`[dev] ${message}\n`);
/** Set once main() can stop what it started; a failure during start-up calls it too. */
let stopAll: (code: number) => Promise<void> = async (code) => process.exit(code);

function previousKey(): string | null {
  try {
    return (JSON.parse(readFileSync(CREDENTIALS_FILE, 'utf8')) as { api_key?: string }).api_key ?? null;
  } catch {
    return null;
  }
}

function startService(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buffered = '';
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout!, process.stdout);
  prefix(child.stderr!, process.stderr);
  return child;
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  // A receiver on this machine (127.0.0.1) is the usual development target; private targets are
  // never inferred from NODE_ENV (docs/webhooks.md), so `make dev` allows them unless told otherwise.
  // The API's and the worker's output reaches the terminal through pipes (prefixed lines), so
  // they are told to write readable lines when this process's output is a terminal.
  const logFormat = process.env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');
  const devEnv = withDevS3Defaults({ ...process.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS || 'true', LOG_FORMAT: logFormat });
  const config = loadConfig(devEnv);
  mkdirSync(DEV_DIR, { recursive: true });
  const children: ChildProcess[] = [];
  let temporal: DevServer | null = null;
  let database: DevDatabase | null = null;
  let s3: S3Server | null = null;
  let s3ConsoleUrl: string | null = null;

  let stopping = false;
  stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    step('stopping...');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), config.http.shutdownTimeoutMs).unref();
          }),
      ),
    );
    await temporal?.stop();
    await s3?.stop();
    await database?.stop();
    step('all stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  database = await ensureDevDatabase(config, DEV_DIR, step);
  const db = createDb({ url: database.url, poolMax: 2, applicationName: 'dubbing-dev' });
  const applied = await migrateToLatest(db);
  step(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema up to date');
  const seed = await seedDev(db, { fixedKey: config.dev.apiKey, previousKey: previousKey(), creditsPerSecond: config.billing.defaultCreditsPerSecond });
  await db.destroy();

  const temporalPort = Number(config.temporal.address.split(':').pop());
  if (await isPortOpen(temporalPort)) {
    step(`a Temporal server already answers on ${config.temporal.address}; using it`);
  } else {
    step('starting the Temporal dev server...');
    const cli = resolveTemporalCli();
    temporal = await startTemporalDevServer({
      cli,
      port: temporalPort,
      uiPort: config.temporal.uiPort,
      dbFile: path.join(DEV_DIR, 'temporal.sqlite'),
      logFile: path.join(DEV_DIR, 'temporal.log'),
    });
  }

  if (config.storage.driver === 's3') ({ server: s3, consoleUrl: s3ConsoleUrl } = await ensureDevS3(config, DEV_DIR, step));

  // The worker's health endpoint tells this script when it polls and has published its engines
  // (on a free port unless WORKER_HEALTH_PORT is set).
  const workerHealthPort = config.worker.healthPort || (await freePort());
  const workerHealthHost = ['0.0.0.0', '::'].includes(config.worker.healthHost) ? '127.0.0.1' : config.worker.healthHost;
  const workerHealthUrl = `http://${workerHealthHost.includes(':') ? `[${workerHealthHost}]` : workerHealthHost}:${workerHealthPort}`;
  const env = { ...devEnv, DATABASE_URL: database.url, TEMPORAL_ADDRESS: config.temporal.address, WORKER_HEALTH_PORT: String(workerHealthPort) };
  children.push(startService('api', 'src/api/server.ts', env), startService('worker', 'src/worker/main.ts', env));
  for (const child of children) {
    child.once('exit', (code, signal) => {
      if (!stopping) {
        step(`a service exited unexpectedly (code ${code}, signal ${signal}); stopping everything`);
        void stopAll(1);
      }
    });
  }

  const baseUrl = config.http.publicBaseUrl;
  await waitForHttp(`http://127.0.0.1:${config.http.port}/healthz`, 60_000);
  // The first start bundles the workflows and probes every engine: on a small machine, minutes.
  step('waiting until a worker polls and the API offers its locales...');
  await waitUntilDubbable(`http://127.0.0.1:${config.http.port}`, workerHealthUrl, { timeoutMs: 600_000, onWaiting: (what) => step(`waiting for ${what}`) });
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify({ base_url: baseUrl, api_key: seed.apiKey }, null, 2)}\n`, { mode: 0o600 });

  const uiUrl = `http://localhost:${config.temporal.uiPort}`;
  process.stdout.write(
    [
      '',
      '  Dubbing service is running',
      `  API            ${baseUrl}`,
      `  Temporal UI    ${temporal ? uiUrl : '(external server: see its own UI)'}`,
      ...(config.storage.driver === 's3'
        ? [
            `  S3 storage     ${config.storage.s3!.endpoint} bucket ${config.storage.s3!.bucket}`,
            `  S3 console     ${s3ConsoleUrl ? `${s3ConsoleUrl}  (log in with S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; dev default ${config.storage.s3!.credentials?.accessKeyId ?? ''})` : '(external server: see its own console)'}`,
          ]
        : [`  Storage        ${config.storage.localDir} (local disk)`]),
      `  API key        ${seed.apiKey}`,
      `  (saved to ${path.relative(ROOT, CREDENTIALS_FILE)})`,
      '',
      `  try: curl -s ${baseUrl}/v1/dubbing/locales`,
      `       curl -s -H "Authorization: Bearer ${seed.apiKey}" ${baseUrl}/v1/usage`,
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
}

main().catch((err) => {
  process.stderr.write(`[dev] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  void stopAll(1);
});
