import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/lib/free-port';
import { createDb, type Db } from '../../src/db/create-db';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { runCommand } from '../helpers/run-command';
import { request } from '../helpers/test-api';
import { putPart, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// The production command line, as the images run it (docker/*.Dockerfile): `npm run build`,
// the workflow bundle made from the compiled code, then `node dist/src/api/server.js` and
// `node dist/src/worker/main.js` with NODE_ENV=production: no tsx, no TypeScript at run time.
// One project goes through them, from upload to a downloaded dub, and the worker's health
// endpoint says ready.

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, '.test-tmp', `compiled-${randomBytes(4).toString('hex')}`);
const DIST = path.join(OUT, 'dist');
/** The Node that runs the compiled programs: this one, or TEST_COMPILED_NODE (e.g. the images' line, 24). */
const NODE = process.env.TEST_COMPILED_NODE || process.execPath;

let db: Db;
let api: ChildProcess | undefined;
let worker: ChildProcess | undefined;
let baseUrl: string;
let healthUrl: string;
let tenant: TestTenant;
let dir: string;

/** A compiled entry in a child process of its own, its output in <OUT>/<name>.log. */
function startCompiled(name: string, entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(NODE, ['--enable-source-maps', path.join(DIST, entry)], { cwd: OUT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(path.join(OUT, `${name}.log`));
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<number | null> {
  if (!child) return null;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

const logOf = (name: string) => (existsSync(path.join(OUT, `${name}.log`)) ? readFileSync(path.join(OUT, `${name}.log`), 'utf8').slice(-3000) : '');

beforeAll(async () => {
  const build = await runCommand('npm', ['run', '--silent', 'build', '--', DIST], { cwd: ROOT });
  if (build.code !== 0) throw new Error(`npm run build failed: ${build.stdout}${build.stderr}`);
  const bundle = await runCommand(NODE, [path.join(DIST, 'scripts', 'bundle-workflows.js'), path.join(DIST, 'workflow-bundle.js')], { cwd: ROOT });
  if (bundle.code !== 0) throw new Error(`the workflow bundle failed: ${bundle.stderr}`);

  const [apiPort, healthPort] = [await freePort(), await freePort()];
  baseUrl = `http://127.0.0.1:${apiPort}`;
  healthUrl = `http://127.0.0.1:${healthPort}`;
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    PUBLIC_BASE_URL: baseUrl,
    // Its own queue: no other test's worker takes its tasks, and the API sees only this worker.
    TEMPORAL_TASK_QUEUE: `compiled-${randomBytes(4).toString('hex')}`,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: path.join(OUT, 'storage'),
    URL_SIGNING_SECRET: randomBytes(24).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    WORKFLOW_BUNDLE_PATH: path.join(DIST, 'workflow-bundle.js'),
    WORKER_HEALTH_PORT: String(healthPort),
    MEDIA_CONCURRENCY: '2',
    RATE_LIMIT_WINDOW_SECONDS: '3600', // every test app's (test-api.ts): a shorter one deletes the rate-limit suite's counts
  };
  api = startCompiled('api', 'src/api/server.js', env);
  worker = startCompiled('worker', 'src/worker/main.js', env);
  await waitFor(
    'the compiled API answers /healthz',
    async () => {
      if (api!.exitCode !== null) throw new Error(`the API exited with ${api!.exitCode}: ${logOf('api')}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.ok;
    },
    60_000,
  );

  db = createDb({ url: process.env.DATABASE_URL!, poolMax: 2 });
  tenant = await createTenant(db, { credits: 100_000, creditsPerSecond: 10 });
  dir = makeTempDir('compiled-build');
}, 480_000);

afterAll(async () => {
  expect(await stop(worker)).toBe(0);
  expect(await stop(api)).toBe(0);
  await db?.destroy();
  if (dir) removeTempDir(dir);
  rmSync(OUT, { recursive: true, force: true });
}, 90_000);

it('builds JavaScript that needs no TypeScript at run time', () => {
  expect(existsSync(path.join(DIST, 'src', 'api', 'server.js'))).toBe(true);
  expect(existsSync(path.join(DIST, 'db', 'migrations', '2026_11_21_0001_foundation.js'))).toBe(true);
  expect(existsSync(path.join(DIST, 'web', 'editor'))).toBe(true);
  // Only the compiled entries were started: no loader that runs TypeScript.
  expect(api!.spawnargs.join(' ')).not.toMatch(/tsx|\.ts\b/);
  expect(worker!.spawnargs.join(' ')).not.toMatch(/tsx|\.ts\b/);
});

it("the compiled worker's health endpoint says live at once and ready once it polls", async () => {
  const live = await waitFor(
    'the compiled worker serves /livez',
    async () => {
      if (worker!.exitCode !== null) throw new Error(`the worker exited with ${worker!.exitCode}: ${logOf('worker')}`);
      return (await fetch(`${healthUrl}/livez`).catch(() => null)) ?? undefined;
    },
    60_000,
    250,
  );
  expect(live.status).toBe(200);
  const ready = await waitFor(
    'the compiled worker is ready',
    async () => {
      if (worker!.exitCode !== null) throw new Error(`the worker exited with ${worker!.exitCode}: ${logOf('worker')}`);
      const res = await fetch(`${healthUrl}/readyz`).catch(() => null);
      return res?.status === 200 ? ((await res.json()) as { status: string; workers: { taskQueue: string; state: string }[] }) : undefined;
    },
    120_000,
    500,
  );
  expect(ready.status).toBe('ready');
  expect(ready.workers.length).toBe(2); // workflows and media
  expect(ready.workers.every((w) => w.state === 'RUNNING')).toBe(true);
  expect((await fetch(`${healthUrl}/nothing`)).status).toBe(404);
}, 150_000);

it('dubs one project from upload to a downloaded dub through the compiled API and worker', async () => {
  const clip = await spokenClip(dir, 'Hello everyone and welcome to the kitchen. Today we cook rice.', 5);
  const created = await request(baseUrl, 'POST', '/v1/dubbing/projects', {
    headers: { ...bearer(tenant.key), 'idempotency-key': `compiled-${randomBytes(4).toString('hex')}` },
    body: { name: 'Compiled', source_locale: 'en_us', target_locales: ['es_es'], max_billable_seconds: 60, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } },
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status} ${JSON.stringify(created.body)}\nworker: ${logOf('worker')}`);
  const project = created.body.data;
  const parts = splitParts(clip, project.transfer.part_size_bytes);
  const completed = [];
  for (const part of project.transfer.parts) {
    const res = await putPart(part.url, parts[part.part_number - 1]!);
    expect(res.status).toBe(200);
    completed.push({ part_number: part.part_number, etag: res.etag! });
  }
  const complete = await request(baseUrl, 'POST', `/v1/dubbing/projects/${project.id}/upload/complete`, { headers: bearer(tenant.key), body: { parts: completed } });
  expect(complete.status).toBeLessThan(300);

  const done = await waitFor(
    'the project is dubbed',
    async () => {
      const view = (await request(baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(tenant.key) })).body.data;
      if (view.status === 'failed' || view.status === 'partially_completed') throw new Error(`project ended ${view.status}: ${JSON.stringify(view.languages)}\n${logOf('worker')}`);
      return view.status === 'completed' ? view : undefined;
    },
    240_000,
    1000,
  );
  expect(done.languages).toEqual([expect.objectContaining({ locale: 'es_es', status: 'completed' })]);

  const redirect = await request(baseUrl, 'GET', `/v1/dubbing/projects/${project.id}/download?locale=es_es&type=audio&format=mp3`, { headers: bearer(tenant.key) });
  expect(redirect.status).toBe(302);
  const file = await fetch(redirect.headers.get('location')!);
  expect(file.status).toBe(200);
  expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(1000);
}, 300_000);
