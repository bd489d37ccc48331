import path from 'node:path';
import { freePort } from '../../scripts/lib/free-port';
import { resolveTemporalCli, startTemporalDevServer, type DevServer } from '../../scripts/lib/temporal-dev-server';
import { bearer } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { CHAOS_TEST_TIMEOUT_MS } from './chaos-scale';
import { chaosClip, startChaosLoad, waitForChaosLoadToEnd } from './chaos-projects';
import { expectChaosInvariants } from './invariants';

// The scenario's own Temporal dev server, its history in a SQLite file, is stopped while the
// projects are mid-pipeline and started again on the same port and file. The API keeps
// answering reads from PostgreSQL meanwhile; the worker reconnects by itself; every workflow
// resumes from its history and every project completes, charged once.

let temporal: DevServer | undefined;
let api: TestApi;
let worker: WorkerProcess | undefined;
let dir: string;

const cli = resolveTemporalCli();
let port: number;
const serverOptions = () => ({ cli, port, uiPort: null, dbFile: path.join(dir, 'temporal.db'), logFile: path.join(dir, 'temporal.log') });

beforeAll(async () => {
  dir = makeTempDir('chaos-temporal');
  port = await freePort();
  temporal = await startTemporalDevServer(serverOptions());
  api = await startTestApi({ TEMPORAL_ADDRESS: temporal.address, TEMPORAL_CALL_TIMEOUT_MS: '2000' });
}, 90_000);
afterAll(async () => {
  await worker?.stop();
  await api.close();
  await temporal?.stop();
  removeTempDir(dir);
});

it(
  'Temporal stopped and restarted on its database file mid-pipeline: every project completes, charged once',
  async () => {
    worker = startWorkerProcess({ TEMPORAL_ADDRESS: temporal!.address, TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue }, path.join(dir, 'worker.log'));
    const clip = await chaosClip();
    const load = await startChaosLoad(api, clip);

    // Mid-pipeline: the money is captured (the workflow has history worth keeping), nothing has ended.
    await waitFor(
      'a capture',
      async () => (await api.db.selectFrom('credit_ledger').select('id').where('project_id', 'in', load.projectIds).where('kind', '=', 'capture').execute()).length > 0,
      120_000,
      100,
    );
    await temporal!.stop();
    const ended = await api.db.selectFrom('projects').select('id').where('id', 'in', load.projectIds).where('status', 'in', ['completed', 'partially_completed', 'failed']).execute();
    expect(ended.length).toBeLessThan(load.projectIds.length);

    // Down: reads still answer, from PostgreSQL.
    const read = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${load.projectIds[0]}`, { headers: bearer(load.tenant.key) });
    expect(read.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3000));

    temporal = await startTemporalDevServer(serverOptions());
    const views = await waitForChaosLoadToEnd(api, load);
    for (const view of views) expect(view.status).toBe('completed');
    await expectChaosInvariants(api.db, api.blobStore, [load.tenant.workspace.id], load.projectIds);
    // The worker rode out the outage in the same process.
    expect(worker.process.exitCode).toBeNull();
  },
  CHAOS_TEST_TIMEOUT_MS,
);
