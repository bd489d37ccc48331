
import { getBalance } from '../../src/db/credits';
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
  const accepted = await waitFor('complete accepted', async () => {
    const res = await complete();
    return res.status === 200 ? res : undefined;
  }, 30_000, 1000);
  expect(accepted.body.data).toMatchObject({ id: project.id, status: 'validating' });

  const done = await waitFor('project completed', async () => {
    const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(tenant.key) });
    return res.body.data.status === 'completed' ? res.body.data : undefined;
  }, 90_000, 500);
  expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 3, charged_seconds: 3 });
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 3 * CPS, reserved: 0 });
}, 150_000);
