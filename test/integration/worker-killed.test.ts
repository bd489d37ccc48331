import { spawn, type ChildProcess } from 'node:child_process';

import path from 'node:path';
import { getBalance } from '../../src/db/credits';
import { bearer, createTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// A worker process is SIGKILLed right after the capture committed but before Temporal heard
// the activity finish. Temporal retries the step on a fresh worker; the ledger reference must
// turn that retry into a no-op: exactly one capture, and the project still completes.

const ROOT = path.resolve(__dirname, '..', '..');
let api: TestApi;
let doomed: ChildProcess | undefined;
let survivor: TestWorker | undefined;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('killed-');
  api = await startTestApi();
});
afterAll(async () => {
  doomed?.kill('SIGKILL');
  await survivor?.stop();
  await api.close();
  removeTempDir(dir);
});

it('charges exactly once when a worker dies mid-workflow and another resumes it', async () => {
  const clip = await spokenClip(dir, 'A worker dies here, and another one finishes the job.', 4);
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });

  doomed = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, DUBBING_TEST_PAUSE_AFTER_CAPTURE_MS: '600000' },
    stdio: 'ignore',
  });

  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
  const projectId: string = created.body.data.id;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);

  const captureRows = () => api.db.selectFrom('credit_ledger').selectAll().where('project_id', '=', projectId).where('kind', '=', 'capture').execute();
  await waitFor('the capture to commit', async () => (await captureRows()).length === 1, 60_000);
  doomed.kill('SIGKILL');
  await new Promise((resolve) => doomed!.once('exit', resolve));

  survivor = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  const done = await waitFor(
    'the project to complete on the second worker',
    async () => {
      const p = (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}`, { headers: bearer(tenant.key) })).body.data;
      return p.status === 'completed' ? p : undefined;
    },
    120_000,
    1000,
  );

  const captures = await captureRows();
  expect(captures).toHaveLength(1);
  const billable = done.usage.billable_seconds;
  expect(captures[0]!.amount).toBe(billable * 2 * 10);
  const kinds = (await api.db.selectFrom('credit_ledger').select('kind').where('project_id', '=', projectId).orderBy('id').execute()).map((r) => r.kind);
  expect(kinds).toEqual(['hold', 'capture', 'release']);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * 20, reserved: 0 });
  expect(done.usage).toMatchObject({ state: 'charged', charged_seconds: billable * 2 });
}, 200_000);
