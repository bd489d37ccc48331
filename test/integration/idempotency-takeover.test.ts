import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { holdCredits } from '../../src/db/credits';
import { holdReferenceFor } from '../../src/db/projects';
import { insertProject } from '../../src/db/status-writes';
import { projectWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { insertInto, QueryHook } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// A retry may take over an Idempotency-Key whose lock is older than the lock timeout (60 s),
// assuming its first request died. If that first request was only stalled, it must not commit
// its work afterwards: one key, one project, one hold. The create writes its project, hold,
// upload and recovery point in one transaction, the recovery point under the lock's fencing
// token, so a holder that lost the lock rolls all of it back. The hook stalls the first create
// inside that transaction and, meanwhile, ages its lock past the timeout, as 60 s of stall
// would, and lets a retry run to completion.

const hook = new QueryHook();
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({}, [hook]);
});
afterAll(() => api.close());

const keyRowOf = (workspaceId: string, key: string) => api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).where('key', '=', key).executeTakeFirstOrThrow();
const ageLock = (workspaceId: string, key: string) =>
  api.db
    .updateTable('idempotency_keys')
    .set({ locked_at: sql<Date>`now() - interval '61 seconds'` })
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .execute();

describe('idempotency lock takeover', () => {
  it('item 8: a stalled first request taken over by a retry rolls back: one project, one hold', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const key = randomUUID();
    const body = projectBody({ name: 'Stalled create' });
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });

    let retry: Awaited<ReturnType<typeof post>> | undefined;
    hook.afterNext(insertInto('projects'), async () => {
      await ageLock(tenant.workspace.id, key);
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
    expect(await keyRowOf(tenant.workspace.id, key)).toMatchObject({ response_status: 201, response_body: JSON.stringify(retry!.body), recovery_point: 'finished', locked_at: null, lock_token: null });

    // The key now answers with the retry's project, byte for byte.
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retry!.body);
  });

  it('issue 27 item 2: a retry after a crash between the commit and the workflow start starts the workflow, once, and pays nothing more', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const body = projectBody({ name: 'Crashed before its start', source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' } });
    const key = randomUUID();
    const post = () => request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
    const projectId = await commitThenCrash(tenant, key, body);
    expect(
      await api.temporal.workflow
        .getHandle(projectWorkflowId(projectId))
        .describe()
        .catch(() => 'not started'),
    ).toBe('not started');

    const resumed = await post();
    expect(resumed.status).toBe(201);
    expect(resumed.headers.get('idempotent-replayed')).toBeNull();
    expect(resumed.body.data).toMatchObject({ id: projectId, status: 'validating', source: { type: 'youtube', youtube_video_id: 'dQw4w9WgXcQ' } });
    const started = await api.temporal.workflow.getHandle(projectWorkflowId(projectId)).describe();
    expect(await keyRowOf(tenant.workspace.id, key)).toMatchObject({ response_status: 201, response_body: JSON.stringify(resumed.body), recovery_point: 'finished', lock_token: null });

    const replayed = await post();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(resumed.body);
    expect((await api.temporal.workflow.getHandle(projectWorkflowId(projectId)).describe()).runId).toBe(started.runId);
    const counts = await workspaceRowCounts(api, tenant.workspace.id);
    expect(counts).toMatchObject({ projects: 1, holds: 1, ledger: 2, idempotency: 1 });
    expect(counts.balance.reserved).toBe(60 * 10);
  });
});

/**
 * What a YouTube create's transaction commits (project, hold, recovery point), left as the API
 * would leave it had it died right after the commit: no workflow, no answer, a stale lock. The
 * request's fingerprint (method, path, body: not the workspace) is taken from a real create of
 * the same body in another workspace.
 */
async function commitThenCrash(tenant: TestTenant, key: string, body: ReturnType<typeof projectBody>): Promise<string> {
  const other = await createTenant(api.db, { credits: 100_000 });
  const probe = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(other.key), 'idempotency-key': key }, body });
  expect(probe.status).toBe(201);
  const { request_sha256: requestSha256 } = await keyRowOf(other.workspace.id, key);

  const id = randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await insertProject(trx, {
      id,
      workspace_id: tenant.workspace.id,
      name: body.name,
      external_id: null,
      source_type: 'youtube',
      source_url: 'https://youtu.be/dQw4w9WgXcQ',
      youtube_video_id: 'dQw4w9WgXcQ',
      source_file_name: null,
      source_size_bytes: null,
      source_duration_seconds: null,
      source_has_video: null,
      fetch_percent: null,
      source_locale: 'en_us',
      target_locales: ['es_es'],
      title: null,
      description: null,
      status: 'validating',
      phase: 'validating',
      failure_code: null,
      failure_message: null,
      failure_detail: null,
      max_billable_seconds: 60,
      credits_per_second: 10,
      billable_seconds: null,
      usage_state: 'pending_validation',
      hold_reference: holdReferenceFor(id),
      transcript_review_requested_at: null,
      transcript_review_verified_at: null,
      validated_at: null,
      completed_at: null,
    });
    await holdCredits(trx, { workspaceId: tenant.workspace.id, reference: holdReferenceFor(id), amount: 600, projectId: id, description: 'project ceiling hold' });
    await trx
      .insertInto('idempotency_keys')
      .values({
        workspace_id: tenant.workspace.id,
        key,
        method: 'POST',
        path: '/v1/dubbing/projects',
        request_sha256: requestSha256,
        locked_at: new Date(Date.now() - 61_000),
        lock_token: randomUUID(),
        recovery_point: 'project_created',
        recovery_data: JSON.stringify({ project_id: id }),
      })
      .execute();
  });
  return id;
}
