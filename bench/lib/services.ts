import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, createWriteStream, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect } from 'kysely';
import { Client as PgClient, Pool } from 'pg';
import { freePort } from '../../scripts/lib/free-port';
import { resolveTemporalCli, startTemporalDevServer, type DevServer } from '../../scripts/lib/temporal-dev-server';
import { createDb } from '../../src/db/create-db';
import { migrateToLatest } from '../../src/db/migrator';
import { publishWorker, retireWorker } from '../../src/db/worker-capabilities';
import { detectCapabilities } from '../../src/engines/capabilities';

// What every benchmark needs around it: a database of its own, a Temporal dev server of its own,
// services in child processes, and a teardown that runs even on Ctrl-C.

export const ROOT = path.resolve(__dirname, '..', '..');
export const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One signing secret per benchmark process, shared by every service it starts. */
const SIGNING_SECRET = `bench-${randomBytes(24).toString('hex')}`;

const cleanups: { label: string; fn: () => Promise<void> | void }[] = [];

/** Registers teardown work; `runCleanups` runs it newest first. */
export function onCleanup(label: string, fn: () => Promise<void> | void): void {
  cleanups.push({ label, fn });
}

export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const { label, fn } = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`[bench] cleanup "${label}" failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

/** Runs `main`, then the teardown, on success, failure or SIGINT/SIGTERM. */
export function runBenchmark(main: () => Promise<number | void>): void {
  let interrupted = false;
  const interrupt = (signal: string) => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n[bench] ${signal}: tearing down\n`);
    void runCleanups().then(() => process.exit(130));
  };
  process.on('SIGINT', () => interrupt('SIGINT'));
  process.on('SIGTERM', () => interrupt('SIGTERM'));
  main()
    .then(async (code) => {
      await runCleanups();
      process.exit(typeof code === 'number' ? code : 0);
    })
    .catch(async (err) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      await runCleanups();
      process.exit(1);
    });
}

/** The code under test: HEAD and the files of src/ and db/ that differ from it (read-only git). */
export function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const head = git('rev-parse', '--short', 'HEAD').trim();
    const changed = git('status', '--porcelain', '--', 'src', 'db')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.slice(3));
    return `git ${head}${changed.length ? ` + uncommitted changes in ${changed.join(', ')}` : ' (clean src/ and db/)'}`;
  } catch {
    return 'git: unknown';
  }
}

export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** A scratch directory under the OS temp dir, removed at teardown. */
export function scratchDir(label: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `dubbing-bench-${label}-`));
  if (!process.env.BENCH_KEEP_SCRATCH) onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface BenchDatabase {
  name: string;
  url: string;
}

/** CREATE DATABASE dubbing_bench_<label>_<random>, migrated to latest; dropped at teardown. */
export async function createBenchDatabase(label: string): Promise<BenchDatabase> {
  const name = `dubbing_bench_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new PgClient({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  onCleanup(`drop database ${name}`, async () => {
    if (process.env.BENCH_KEEP_DATABASE) return log(`kept database ${name} (BENCH_KEEP_DATABASE)`);
    const c = new PgClient({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url.toString(), max: 2 }) }) });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return { name, url: url.toString() };
}

/** `temporal server start-dev`, headless and in memory, on free ports; stopped at teardown. */
export async function startBenchTemporal(logDir: string): Promise<DevServer> {
  const cli = resolveTemporalCli();
  const port = await freePort();
  const server = await startTemporalDevServer({ cli, port, uiPort: null, dbFile: null, logFile: path.join(logDir, `temporal-${port}.log`) });
  onCleanup('stop temporal dev server', () => server.stop());
  return server;
}

export interface ChildService {
  name: string;
  baseUrl: string;
  port: number;
  process: ChildProcess;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * `node --import tsx <script>` with `env` on top of this process's environment (plus PORT and
 * PUBLIC_BASE_URL for a free loopback port), its output in a log file; resolves once `readyPath`
 * answers 200 (or, without one, at once). With `compiledDir` (buildCompiled), the script's
 * compiled JavaScript there instead, as the images run it.
 */
export async function startNodeService(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  logDir: string;
  port?: number;
  readyPath?: string;
  nodeArgs?: string[];
  readyTimeoutMs?: number;
  compiledDir?: string;
}): Promise<ChildService> {
  const port = options.port ?? (await freePort());
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const entry = options.compiledDir ? [path.join(options.compiledDir, options.script.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', options.script];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    cwd: ROOT,
    // The service listens on `port` and builds its absolute URLs (signed upload links) from it.
    env: { ...process.env, ...options.env, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  let exited: number | null | undefined;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exitedPromise;
    clearTimeout(timer);
  };
  onCleanup(`stop ${options.name}`, stop);
  const baseUrl = `http://127.0.0.1:${port}`;
  if (options.readyPath) {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
    for (let attempt = 0; ; attempt++) {
      if (exited !== undefined) throw new Error(`${options.name} exited (code ${exited}) during start; log:\n${tail(logFile)}`);
      try {
        const res = await fetch(`${baseUrl}${options.readyPath}`);
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${options.name} not ready after ${options.readyTimeoutMs ?? 60_000} ms; log:\n${tail(logFile)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { name: options.name, baseUrl, port, process: child, pid: child.pid!, logFile, stop };
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Environment the real API and worker read (src/config/), pointing at this run's services. */
export function serviceEnv(options: { databaseUrl: string; temporalAddress: string; taskQueue: string; storageDir: string; extra?: Record<string, string> }): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: options.databaseUrl,
    TEMPORAL_ADDRESS: options.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: options.taskQueue,
    STORAGE_DIR: options.storageDir,
    URL_SIGNING_SECRET: SIGNING_SECRET,
    // Production requires its own key for webhook secrets at rest (docs/webhooks.md).
    WEBHOOK_SECRET_KEY: 'be'.repeat(32),
    HOST: '127.0.0.1',
    // One key drives the whole load: the limiter runs (its cost is measured) but never trips.
    RATE_LIMIT_READS: '100000000',
    RATE_LIMIT_WRITES: '100000000',
    ...options.extra,
  };
}

/**
 * This machine's engines recorded as a worker of `taskQueue` that has just stopped: the API's
 * last known fleet. A benchmark that runs no worker can then still create projects, which wait
 * for a worker as they would in production (the tests' startTestApi does the same).
 */
export async function seedLastKnownFleet(databaseUrl: string, taskQueue: string): Promise<void> {
  const db = createDb({ url: databaseUrl, poolMax: 1, applicationName: 'bench-fleet-seed' });
  try {
    const workerId = `bench-seed/${taskQueue}`;
    await publishWorker(db, { workerId, taskQueue, mediaTaskQueue: `${taskQueue}.media.bench-seed`, capabilities: await detectCapabilities(), ttlSeconds: 0 });
    await retireWorker(db, workerId, taskQueue);
  } finally {
    await db.destroy();
  }
}

/**
 * The project compiled to JavaScript in `outDir` (`npm run build`, scripts/build.sh): what
 * `docker/*.Dockerfile` run, without tsx's loader and its esbuild process in the measured tree.
 */
export async function buildCompiled(outDir: string): Promise<string> {
  await promisify(execFile)('sh', ['scripts/build.sh', outDir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  // What the image has beside dist/: the dependencies and package.json.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(path.dirname(outDir), 'node_modules'));
  copyFileSync(path.join(ROOT, 'package.json'), path.join(path.dirname(outDir), 'package.json'));
  return outDir;
}
