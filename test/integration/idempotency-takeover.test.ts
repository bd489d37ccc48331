import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { grantCredits } from '../../src/db/credits';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { QueryHook, selectFrom } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// A retry may take over an Idempotency-Key whose lock is older than the lock timeout (60 s),
// assuming its first request died. If that first request was only stalled, it must not write
// its work afterwards: one key, one project, one hold. A create claims a new key in the same
// statement that writes its project, its hold and its answer, so a retry after that statement
// replays the answer at once; the takeover window left is a retry resuming a key whose first
// request died after claiming it but before writing (refused for credits here), before the
// taker's own write. The hooks stall a request in each window and, meanwhile, age its lock past
// the timeout, as 60 s of stall would, and let a retry run to completion.

const hook = new QueryHook();
let api: TestApi;
beforeAll(async () => { api = await startTestApi({}, [hook]); });
afterAll(() => api.close());

const keyRowOf = (workspaceId: string, key: string) =>
  api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).where('key', '=', key).executeTakeFirst();
const ageLock = (workspaceId: string, key: string) =>
  api.db.updateTable('idempotency_keys').set({ locked_at: sql<Date>`now() - interval '61 seconds'` as any }).where('workspace_id', '=', workspaceId).where('key', '=', key).execute();

/**
 * The key row of a create refused for credits, put back as if the API had died before forgetting
 * it (lock stale), with credits granted since: the state a takeover resumes from.
 */
async function keyLeftByRefusedCreate(tenant: TestTenant, key: string, post: () => Promise<unknown>): Promise<string> {
  let left: Awaited<ReturnType<typeof keyRowOf>>;
  // The new key's own statement writes nothing for want of credits; the classic claim takes the
  // key, and the write under its lock (the second raw statement) leaves the recovery point.
  let raw = 0;
  hook.afterNext((node) => node.kind === 'RawNode' && ++raw === 2, async () => { left = await keyRowOf(tenant.workspace.id, key); });
  const refused = (await post()) as { status: number };
  expect(refused.status).toBe(402);
  expect(left).toMatchObject({ recovery_point: 'project_created' });
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toMatchObject({ projects: 0, holds: 0, idempotency: 0 });
  await api.db.insertInto('idempotency_keys').values({ ...left!, recovery_data: JSON.stringify(left!.recovery_data), locked_at: new Date(Date.now() - 61_000) } as any).execute();
  await api.db.transaction().execute((trx) => grantCredits(trx, { workspaceId: tenant.workspace.id, reference: `grant:${tenant.workspace.id}:top-up`, amount: 1000 }));
  return (left!.recovery_data as { project_id: string }).project_id;
}

describe('idempotency lock takeover', () => {
  it('item 8: a request stalled after its write: a retry meanwhile replays the answer stored with it; one project, one hold', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const key = randomUUID();
    const body = projectBody({ name: 'Stalled create' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });

    let retry: Awaited<ReturnType<typeof post>> | undefined;
    hook.afterNext((node) => node.kind === 'RawNode', async () => {
      await ageLock(tenant.workspace.id, key);
      retry = await post();
    });
    const first = await post();

    expect(retry?.status).toBe(201);
    expect(retry?.headers.get('idempotent-replayed')).toBe('true');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry!.body).toEqual(first.body);
    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
    // The answer was stored by the statement that wrote the project; nothing was written after
    // it (a second write would have cleared the token).
    expect(await keyRowOf(tenant.workspace.id, key)).toMatchObject({ response_status: 201, response_body: JSON.stringify(first.body), recovery_point: 'finished', lock_token: expect.any(String) });
  });

  it('item 8: a takeover stalled before its write, taken over again, writes nothing: one project, one hold', async () => {
    const tenant = await createTenant(api.db, { credits: 100 });
    const key = randomUUID();
    const body = projectBody({ name: 'Twice taken over' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
    const recordedId = await keyLeftByRefusedCreate(tenant, key, post);

    // The first takeover looks for the recorded project (absent) and stalls there.
    let retry: Awaited<ReturnType<typeof post>> | undefined;
    hook.afterNext(selectFrom('projects'), async () => {
      await ageLock(tenant.workspace.id, key);
      retry = await post();
    });
    const stalled = await post();

    expect(retry?.status).toBe(201);
    expect(retry!.body.data.id).toBe(recordedId);
    expect(stalled.status).toBe(409);
    expect(stalled.body.error).toMatchObject({ type: 'conflict_error', code: 'idempotency_request_in_progress' });
    expect(stalled.headers.get('retry-after')).toBe('1');
    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
    expect(await keyRowOf(tenant.workspace.id, key)).toMatchObject({ response_status: 201, recovery_point: 'finished', lock_token: null });
  });

  it('a key left with its recovery point but no project (refused for credits, then the API died) creates the project under the recorded id', async () => {
    const tenant = await createTenant(api.db, { credits: 100 });
    const key = randomUUID();
    const body = projectBody({ name: 'Refused, then resumed' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
    const recordedId = await keyLeftByRefusedCreate(tenant, key, post);

    const resumed = await post();
    expect(resumed.status).toBe(201);
    expect(resumed.body.data.id).toBe(recordedId);
    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
    expect(await keyRowOf(tenant.workspace.id, key)).toMatchObject({ response_status: 201, recovery_point: 'finished', lock_token: null });
  });
});
