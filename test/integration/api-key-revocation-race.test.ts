import { revokeApiKey } from '../../src/db/api-keys';
import { bearer, createTenant } from '../helpers/fixtures';
import { QueryHook, selectFrom } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// A request that read a key's row just before the key was revoked must not cache that row
// after the revocation's NOTIFY has already passed (evicting nothing): the key would keep
// working for the cache's whole TTL. The hook lands the revocation, and its notification,
// exactly between the request's database read and its cache write.

const hook = new QueryHook();
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({}, [hook]);
});
afterAll(() => api.close());

const usage = (key: string) => request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) });

describe('API key cache and revocation', () => {
  it('item 7: does not cache a key row read just before its revocation', async () => {
    const tenant = await createTenant(api.db);
    hook.afterNext(selectFrom('api_keys'), async () => {
      await api.db.transaction().execute((trx) => revokeApiKey(trx, tenant.keyId));
      // The NOTIFY has been applied to the cache before the app gets the (stale) row.
      await api.keyCache.sync();
    });
    // This request read the key while it was valid; it may finish, but must leave nothing behind.
    expect((await usage(tenant.key)).status).toBe(200);

    const after = await usage(tenant.key);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    // Whatever the cache holds now is the revoked row (a revocation is final, so that is safe).
    expect(api.keyCache.get(tenant.keyId)?.revoked_at ?? 'not cached').not.toBeNull();
    const row = await api.db.selectFrom('api_keys').select('revoked_at').where('id', '=', tenant.keyId).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeInstanceOf(Date);
  });

  it('item 7: still caches a key when no revocation lands during its read', async () => {
    const tenant = await createTenant(api.db);
    // The key's creation is announced too (it forgets a remembered miss): let that notice pass
    // first, or arriving late it would evict the row this request caches.
    await api.keyCache.sync();
    expect((await usage(tenant.key)).status).toBe(200);
    expect(api.keyCache.get(tenant.keyId)?.id).toBe(tenant.keyId);
    await api.db.transaction().execute((trx) => revokeApiKey(trx, tenant.keyId));
    await api.keyCache.sync();
    expect(api.keyCache.get(tenant.keyId)).toBeUndefined();
    expect((await usage(tenant.key)).status).toBe(401);
  });

  it('caches a key whose read saw only other keys change (new keys are announced all the time)', async () => {
    const tenant = await createTenant(api.db);
    await api.keyCache.sync();
    hook.afterNext(selectFrom('api_keys'), async () => {
      await createTenant(api.db);
      await api.keyCache.sync();
    });
    expect((await usage(tenant.key)).status).toBe(200);
    expect(api.keyCache.get(tenant.keyId)?.id).toBe(tenant.keyId);
  });
});
