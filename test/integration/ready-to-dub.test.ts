import { sql } from 'kysely';
import { freePort } from '../../scripts/lib/free-port';
import { dubbableNow, waitUntilDubbable } from '../../scripts/lib/dubbable';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// When can a project be dubbed? Not when the API answers /healthz or /readyz (what `make dev`
// used to wait for): a worker must poll and have published its engines, and the API must offer
// them. A real API, a real worker process (src/worker/main.ts) with its health endpoint, and
// scripts/lib/dubbable.ts, the check `make dev` runs before its banner.

let api: TestApi;
let tenant: TestTenant;
let worker: WorkerProcess | undefined;
let health: string;

beforeAll(async () => {
  api = await startTestApi({}, [], 'none'); // no worker has ever published: a fresh machine
  tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
  health = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await worker?.stop();
  await api.close();
});

const workerRecord = async () =>
  api.db
    .selectFrom('worker_capabilities')
    .select(['worker_id', 'heartbeat_at'])
    .select(sql<boolean>`expires_at > now()`.as('live'))
    .where('worker_id', 'like', `${worker!.identityPrefix}%`)
    .executeTakeFirst();
const workerReadyz = async () => {
  const res = await fetch(`${health}/readyz`).catch(() => null);
  return res && { status: res.status, body: (await res.json()) as { status: string; reason?: string; workers?: { taskQueue: string; state: string }[] } };
};

it('with no worker the API is ready and says no worker serves locales; nothing is dubbable yet', async () => {
  // What the old `make dev` waited for, before printing "running", all answered...
  expect((await request(api.baseUrl, 'GET', '/healthz')).status).toBe(200);
  const ready = await request(api.baseUrl, 'GET', '/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toEqual({ data: { status: 'ready', checks: { postgres: true, temporal: true }, workers: { live: 0, locales: 0 } } });
  // ...while the banner's own first curl listed nothing, and a create was refused, writing nothing.
  expect((await request(api.baseUrl, 'GET', '/v1/dubbing/locales')).body.data).toEqual([]);
  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const refused = await createProject(api, tenant, projectBody());
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_locale', param: 'source_locale' });
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);

  expect(await dubbableNow(api.baseUrl, health)).toEqual({ dubbable: false, waitingFor: 'the worker to start' });
  await expect(waitUntilDubbable(api.baseUrl, health, { timeoutMs: 500, intervalMs: 100 })).rejects.toThrow('not dubbable after 0.5 s: still waiting for the worker to start');
});

it('a worker is ready only once it polls and its record is live; then the API offers its locales and a create is accepted', async () => {
  worker = startWorkerProcess({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, WORKER_HEALTH_PORT: new URL(health).port, WORKER_HEARTBEAT_SECONDS: '2' });
  // Every answer until the first 200 is a 503 saying why; at the first 200 the workers run and
  // the record is already live in PostgreSQL.
  const unready: string[] = [];
  const ready = await waitFor(
    'the worker to be ready',
    async () => {
      if (worker!.process.exitCode !== null) throw new Error(`the worker exited with ${worker!.process.exitCode}`);
      const res = await workerReadyz();
      if (res?.status === 503) unready.push(res.body.reason ?? '(no reason)');
      return res?.status === 200 ? res.body : undefined;
    },
    120_000,
    100,
  );
  const record = await workerRecord();
  expect(record?.live).toBe(true);
  expect(ready.status).toBe('ready');
  expect(ready.workers!.map((w) => w.state)).toEqual(['RUNNING', 'RUNNING']); // workflows and media
  expect(unready.every((reason) => reason !== '(no reason)')).toBe(true);

  // The check `make dev` waits on, and what it promises once it passes.
  const offered = await waitUntilDubbable(api.baseUrl, health, { timeoutMs: 30_000, intervalMs: 100 });
  expect(offered).toBeGreaterThan(0);
  const readyz = await request(api.baseUrl, 'GET', '/readyz');
  expect(readyz.status).toBe(200);
  expect(readyz.body.data.workers).toEqual({ live: 1, locales: offered });
  const locales = await request(api.baseUrl, 'GET', '/v1/dubbing/locales');
  expect(locales.body.data).toHaveLength(offered);
  expect(locales.body.data.map((l: { locale: string }) => l.locale)).toEqual(expect.arrayContaining(['en_us', 'es_es']));
  const created = await createProject(api, tenant, projectBody());
  expect(created.status).toBe(201);
}, 150_000);

it('a worker whose heartbeats lapsed is not ready (the API no longer offers it), and is again after its next beat', async () => {
  // Right after a beat, so the next one (2 s) cannot land between the expiry and the checks.
  const seen = (await workerRecord())!.heartbeat_at.getTime();
  await waitFor('a heartbeat', async () => ((await workerRecord())!.heartbeat_at.getTime() > seen ? true : undefined), 10_000, 20);
  // As if its last three beats had not reached the database.
  await api.db
    .updateTable('worker_capabilities')
    .set({ expires_at: sql<Date>`now()` })
    .where('worker_id', 'like', `${worker!.identityPrefix}%`)
    .execute();

  const lapsed = await workerReadyz();
  expect(lapsed?.status).toBe(503);
  expect(lapsed?.body).toMatchObject({ status: 'unready', reason: 'capabilities not published: no live worker_capabilities record' });
  await api.capabilities.refresh(); // the API's own timer would re-read within a heartbeat
  expect((await request(api.baseUrl, 'GET', '/readyz')).body.data).toMatchObject({ status: 'ready', workers: { live: 0, locales: 0 } });
  expect(await dubbableNow(api.baseUrl, health)).toMatchObject({ dubbable: false });

  // The next heartbeat renews the record: ready again, and offered again.
  await waitFor('the worker to be ready again', async () => (await workerReadyz())?.status === 200, 10_000, 100);
  expect((await workerRecord())?.live).toBe(true);
  await api.capabilities.refresh();
  expect(await dubbableNow(api.baseUrl, health)).toMatchObject({ dubbable: true });
}, 60_000);
