import path from 'node:path';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';
import { CHAOS_TEST_TIMEOUT_MS } from './chaos-scale';
import { chaosClip, startChaosLoad, waitForChaosLoadToEnd } from './chaos-projects';
import { expectChaosInvariants } from './invariants';
import { childCommands } from './process-tree';

// A real worker process is SIGKILLed while one of its ffmpeg processes runs (a media activity in
// flight, its heartbeats about to stop). A second worker on the same queues picks the step up
// once Temporal notices (heartbeat timeout) and finishes every project: each charged once.

let api: TestApi;
let doomed: WorkerProcess | undefined;
let survivor: TestWorker | undefined;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('chaos-sigkill');
  api = await startTestApi();
});
afterAll(async () => {
  doomed?.process.kill('SIGKILL');
  await survivor?.stop();
  await api.close();
  removeTempDir(dir);
});

it(
  'SIGKILL of a worker while ffmpeg runs: another worker finishes every project, charged once',
  async () => {
    doomed = startWorkerProcess({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue }, path.join(dir, 'doomed.log'));
    const doomedPid = doomed.process.pid!;
    const exited = new Promise((resolve) => doomed!.process.once('exit', resolve));
    const clip = await chaosClip();
    const load = await startChaosLoad(api, clip);

    // Polled often: a short clip's ffmpeg lives well under a second.
    const ffmpegChild = await waitFor('the doomed worker to run ffmpeg', async () => childCommands(doomedPid).find((c) => c.command === 'ffmpeg'), 120_000, 20);
    doomed.process.kill('SIGKILL');
    await exited;
    expect(doomed.process.signalCode).toBe('SIGKILL');
    expect(ffmpegChild.pid).toBeGreaterThan(0);
    // Nothing of the dead worker's has finished the work: at least one project is still running.
    const running = await api.db.selectFrom('projects').select('id').where('id', 'in', load.projectIds).where('status', 'not in', ['completed', 'partially_completed', 'failed']).execute();
    expect(running.length).toBeGreaterThan(0);

    survivor = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
    const views = await waitForChaosLoadToEnd(api, load);
    for (const view of views) expect(view.status).toBe('completed');
    const outcomes = await expectChaosInvariants(api.db, api.blobStore, [load.tenant.workspace.id], load.projectIds);
    expect(outcomes.every((o) => Object.values(o.languages).every((l) => l.status === 'completed'))).toBe(true);
  },
  CHAOS_TEST_TIMEOUT_MS,
);
