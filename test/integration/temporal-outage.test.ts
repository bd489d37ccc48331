import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { projectWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { startOutageStack, type OutageStack } from '../helpers/outage-stack';
import type { CuttableProxy } from '../helpers/tcp-proxy';
import { request, type TestApi } from '../helpers/test-api';
import { putPart, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// Item 1: upload/complete commits, then starts the workflow. The API reaches the real dev server
// through a proxy the test cuts between the two writes; the worker keeps its own connection.

const CPS = 10;
let proxy: CuttableProxy;
let api: TestApi;
let stack: OutageStack;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('outage-');
  stack = await startOutageStack({ worker: true, env: { UPLOAD_PART_SIZE_BYTES: String(64 * 1024) } });
  ({ proxy, api } = stack);
}, 60_000);
afterAll(async () => {
  await stack.close();
  removeTempDir(dir);
});

it('item 1: with Temporal unreachable, complete answers 503 with Retry-After; the retried complete starts the workflow and the project is dubbed and settled', async () => {
  const clip = await spokenClip(dir, 'Bread is baked early in the morning.', 3);
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'bread.mp4', size_bytes: clip.length } }));
  expect(created.status).toBe(201);
  const project = created.body.data;
  const bytes = splitParts(clip, project.transfer.part_size_bytes);
  const parts: { part_number: number; etag: string }[] = [];
  for (const part of project.transfer.parts) parts.push({ part_number: part.part_number, etag: (await putPart(part.url, bytes[part.part_number - 1]!)).etag! });
  const complete = () => request(api.baseUrl, 'POST', `/v1/dubbing/projects/${project.id}/upload/complete`, { headers: bearer(tenant.key), body: { parts } });

  await proxy.cut();
  const refused = await complete();
  expect(refused.status).toBe(503);
  expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  // The commit before the outage stands: the upload is complete, the project waits to validate.
  const upload = await api.db.selectFrom('uploads').select('completed_at').where('project_id', '=', project.id).executeTakeFirstOrThrow();
  expect(upload.completed_at).not.toBeNull();
  expect((await api.db.selectFrom('projects').select('status').where('id', '=', project.id).executeTakeFirstOrThrow()).status).toBe('validating');

  // Temporal is back; the client retries the same request as Retry-After says.
  await proxy.restore();
  const accepted = await waitFor(
    'complete accepted',
    async () => {
      const res = await complete();
      return res.status === 200 ? res : undefined;
    },
    30_000,
    1000,
  );
  expect(accepted.body.data).toMatchObject({ id: project.id, status: 'validating' });

  const done = await waitFor(
    'project completed',
    async () => {
      const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(tenant.key) });
      return res.body.data.status === 'completed' ? res.body.data : undefined;
    },
    90_000,
    500,
  );
  expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 3, charged_seconds: 3 });
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 3 * CPS, reserved: 0 });
}, 150_000);

it('a YouTube create answered 503 while Temporal is unreachable: its retry resumes from the recovery point committed with the project and starts the workflow', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const key = randomUUID();
  const create = () =>
    request(api.baseUrl, 'POST', '/v1/dubbing/projects', {
      headers: { ...bearer(tenant.key), 'idempotency-key': key },
      body: projectBody({ source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }, max_billable_seconds: 30 }),
    });

  await proxy.cut();
  const refused = await create();
  expect(refused.status).toBe(503);
  expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  // The project, its hold and the recovery point committed before the start failed; the lock is
  // released, so the retry resumes at once.
  const keyRow = await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).where('key', '=', key).executeTakeFirstOrThrow();
  expect(keyRow).toMatchObject({ response_status: null, recovery_point: 'project_created', locked_at: null, lock_token: null });
  const projectId = (keyRow.recovery_data as { project_id: string }).project_id;
  expect(await api.db.selectFrom('projects').select('status').where('id', '=', projectId).executeTakeFirstOrThrow()).toEqual({ status: 'validating' });

  await proxy.restore();
  const resumed = await waitFor(
    'create resumed',
    async () => {
      const res = await create();
      return res.status === 201 ? res : undefined;
    },
    30_000,
    1000,
  );
  expect(resumed.body.data).toMatchObject({ id: projectId, status: 'validating' });
  // The retry started the workflow that the 503 left unstarted; a replay starts nothing more.
  const handle = api.temporal.workflow.getHandle(projectWorkflowId(projectId));
  const first = await handle.describe();
  const replayed = await create();
  expect(replayed.status).toBe(201);
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  expect(replayed.body).toEqual(resumed.body);
  expect((await handle.describe()).runId).toBe(first.runId);
  const holds = await api.db.selectFrom('credit_ledger').select('reference').where('project_id', '=', projectId).where('kind', '=', 'hold').execute();
  expect(holds).toEqual([{ reference: `${projectId}:hold` }]);
  expect(
    await api.db
      .selectFrom('projects')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('workspace_id', '=', tenant.workspace.id)
      .executeTakeFirstOrThrow(),
  ).toEqual({ n: 1 });
}, 60_000);
