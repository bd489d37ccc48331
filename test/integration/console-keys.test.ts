import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('console: keys', () => {
  it('item 21: creates a key that works once, lists it without its secret, and revokes it (deterministically 401 after)', async () => {
    const { workspace } = await createTenant(api.db, { credits: 100 });
    const created = await consoleRun('keys:create', '--workspace', workspace.id, '--name', 'ci key', '--permissions', 'usage:read');
    expect(created.code).toBe(0);
    const key = /secret \(shown once\): (dk_\S+)/.exec(created.out)![1]!;
    const keyId = key.split('_')[1]!;
    expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) })).status).toBe(200);

    const listed = await consoleRun('keys:list', '--workspace', workspace.id);
    expect(listed.out).toContain(keyId);
    expect(listed.out).toContain('"ci key"');
    expect(listed.out).not.toContain(key.split('_')[2]!);
    const row = await api.db.selectFrom('api_keys').select(['secret_sha256', 'permissions', 'kind']).where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ permissions: ['usage:read'], kind: 'project' });
    expect(row.secret_sha256).toHaveLength(32);

    expect((await consoleRun('keys:revoke', keyId)).out).toBe(`revoked ${keyId}`);
    // The console is another client: its revocation reaches the API's key cache by NOTIFY, a
    // moment later. Asking right away raced that delivery (a busy machine saw 200). sync() waits
    // until every change committed before it has been applied, so this is deterministic.
    await api.keyCache.sync();
    expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) })).status).toBe(401);
    expect((await consoleRun('keys:revoke', keyId)).out).toBe(`no active key ${keyId}`);
  });

  it('refuses notes:read on a team project key and bad permissions, writing nothing', async () => {
    const { workspace } = await createTenant(api.db);
    const count = async () => (await api.db.selectFrom('api_keys').select('id').where('workspace_id', '=', workspace.id).execute()).length;
    const before = await count();
    const notes = await consoleRun('keys:create', '--workspace', workspace.id, '--name', 'x', '--permissions', 'notes:read');
    expect(notes.code).toBe(1);
    expect(notes.out).toContain('cannot hold notes:read');
    const bad = await consoleRun('keys:create', '--workspace', workspace.id, '--name', 'x', '--permissions', 'dubbing:delete');
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('bad: dubbing:delete');
    expect(await count()).toBe(before);
  });
});
