import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { grantCredits } from '../../src/db/credits';
import { bearer, createTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { insertInto, QueryHook } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// A retry may take over an Idempotency-Key whose lock is older than the lock timeout (60 s),
// assuming its first request died. If that first request was only stalled, it must not write
// its work afterwards: one key, one project, one hold. The hook stalls the first create after it
// claimed the key (before the one statement that writes project, hold and recovery point) and,
// meanwhile, ages its lock past the timeout, as 60 s of stall would, and lets the retry run to
// completion.

const hook = new QueryHook();
let api: TestApi;
beforeAll(async () => { api = await startTestApi({}, [hook]); });
afterAll(() => api.close());

describe('idempotency lock takeover', () => {
  it('item 8: a stalled first request taken over by a retry writes nothing: one project, one hold', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const key = randomUUID();
    const body = projectBody({ name: 'Stalled create' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });

    let retry: Awaited<ReturnType<typeof post>> | undefined;
    hook.afterNext(insertInto('idempotency_keys'), async () => {
      await api.db
        .updateTable('idempotency_keys')
        .set({ locked_at: sql<Date>`now() - interval '61 seconds'` as any })
        .where('workspace_id', '=', tenant.workspace.id)
        .where('key', '=', key)
        .execute();
      retry = await post();
    });
    const first = await post();

    expect(retry?.status).toBe(201);
    expect(first.status).toBe(409);
    expect(first.body.error).toMatchObject({ type: 'conflict_error', code: 'idempotency_request_in_progress' });
    expect(first.headers.get('retry-after')).toBe('1');

    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
    const project = await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).executeTakeFirstOrThrow();
    expect(project.id).toBe(retry!.body.data.id);
    const row = await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).where('key', '=', key).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ response_status: 201, recovery_point: 'finished', locked_at: null, lock_token: null });

    // The key now answers with the retry's project, byte for byte.
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(retry!.body.data.id);
  });

  it('a key left with its recovery point but no project (refused for credits, then the API died) creates the project under the recorded id', async () => {
    const tenant = await createTenant(api.db, { credits: 100 });
    const key = randomUUID();
    const body = projectBody({ name: 'Refused, then resumed' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
    const keyRow = () => api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).where('key', '=', key).executeTakeFirst();

    // Capture the key row as the create statement left it, before the 402 path forgets it.
    let left: Awaited<ReturnType<typeof keyRow>>;
    hook.afterNext((node) => node.kind === 'RawNode', async () => { left = await keyRow(); });
    const refused = await post();
    expect(refused.status).toBe(402);
    expect(left).toMatchObject({ recovery_point: 'project_created' });
    const recordedId = (left!.recovery_data as { project_id: string }).project_id;
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toMatchObject({ projects: 0, holds: 0, idempotency: 0 });

    // As if the process had died before forgetting the key: the row is back, its lock stale.
    await api.db.insertInto('idempotency_keys').values({ ...left!, recovery_data: JSON.stringify(left!.recovery_data), locked_at: new Date(Date.now() - 61_000) } as any).execute();
    await api.db.transaction().execute((trx) => grantCredits(trx, { workspaceId: tenant.workspace.id, reference: `grant:${tenant.workspace.id}:top-up`, amount: 1000 }));

    const resumed = await post();
    expect(resumed.status).toBe(201);
    expect(resumed.body.data.id).toBe(recordedId);
    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
    expect(await keyRow()).toMatchObject({ response_status: 201, recovery_point: 'finished', lock_token: null });
  });
});
