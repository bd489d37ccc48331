import { randomBytes } from 'node:crypto';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { generateApiKey } from '../../src/auth/api-key-secret';
import { bearer, createTenant } from '../helpers/fixtures';
import { QueryCounter, selectFrom } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Failed authentication: a wrong key costs at most one key read per miss window, and an address
// that keeps failing is refused (429) before any read. The API trusts one proxy here, so each
// request names its client address in X-Forwarded-For, as a load balancer would.

const LIMIT = 5;
const keyReads = new QueryCounter((node) => selectFrom('api_keys')(node, { rows: [] }));
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ RATE_LIMIT_AUTH_FAILURES: String(LIMIT), TRUST_PROXY_HOPS: '1' }, [keyReads]);
});
afterAll(() => api?.close());

const usage = (key: string, address: string, forwardedFor = address) => request(api.baseUrl, 'GET', '/v1/usage', { headers: { ...bearer(key), 'x-forwarded-for': forwardedFor } });
/** The key ids and workspaces this file tried or made: its rows, whatever other files write meanwhile. */
const triedKeyIds = new Set<string>();
const ownWorkspaces = new Set<string>();
/** A well-formed key no row has. */
const unknownKey = () => {
  const generated = generateApiKey();
  triedKeyIds.add(generated.keyId);
  return generated.key;
};
const tenantHere = async () => {
  const tenant = await createTenant(api.db);
  ownWorkspaces.add(tenant.workspace.id);
  return tenant;
};
let addresses = 0;
const freshAddress = () => `198.51.100.${++addresses}`;
/** api_keys rows with a key id this file tried, or in a workspace it made. */
const keyRows = async () =>
  Number(
    (
      await api.db
        .selectFrom('api_keys')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('id', 'in', [...triedKeyIds, '-']), eb('workspace_id', 'in', [...ownWorkspaces, '00000000-0000-0000-0000-000000000000'])]))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Failures are counted in minute windows aligned to the clock: start well inside one. */
async function startOfAQuietWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe('failed authentication', () => {
  // ae776e7: every request with an unknown key id read api_keys (10 requests, 10 reads).
  it('issue 26 item 12: a wrong key repeated costs one key read per window, and a key created after the miss works at once', async () => {
    const before = await keyRows();
    const wrong = unknownKey();
    const reads = keyReads.count;
    for (let i = 0; i < 10; i++) {
      const res = await usage(wrong, freshAddress()); // other addresses: the limit stays out of it
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    }
    expect(keyReads.count - reads).toBe(1);
    // Another wrong key is one more read, then none.
    const other = unknownKey();
    for (let i = 0; i < 3; i++) expect((await usage(other, freshAddress())).status).toBe(401);
    expect(keyReads.count - reads).toBe(2);
    expect(await keyRows()).toBe(before);

    // The very id remembered as missing, issued now (as the dev seed issues a fixed key): its
    // creation is announced to the key caches, and the key works at once.
    const tenant = await tenantHere();
    const { row } = await issueApiKey(api.db, { workspaceId: tenant.workspace.id, kind: 'project', name: 'late', permissions: ['usage:read'], fixedKey: wrong });
    await api.keyCache.sync();
    const res = await usage(wrong, freshAddress());
    expect(res.status).toBe(200);
    expect(await keyRows()).toBe(before + 2);
    const stored = await api.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ id: row.id, revoked_at: null });
  });

  // ae776e7 never limited failed authentications: the sixth wrong key from one address got 401 and read the database like the first.
  it('issue 26 item 12: the failure past the limit from one address gets 429, without a key read; another address is unaffected', async () => {
    const tenant = await tenantHere();
    const cachedElsewhere = await tenantHere();
    const neverUsed = await tenantHere();
    await startOfAQuietWindow();
    const attacker = freshAddress();
    const neighbour = freshAddress();
    expect((await usage(cachedElsewhere.key, neighbour)).status).toBe(200); // now cached here

    const before = await keyRows();
    for (let i = 0; i < LIMIT; i++) {
      const res = await usage(unknownKey(), attacker);
      expect(res.status).toBe(401);
    }
    const reads = keyReads.count;
    const refused = await usage(unknownKey(), attacker);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.body.error.message).toContain(`the limit is ${LIMIT} per 60 seconds`);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A malformed or missing key is a failure too, and refused the same way.
    expect((await usage('not-a-key', attacker)).status).toBe(429);
    // Writing someone else's address first in X-Forwarded-For does not help: the proxy's entry counts.
    expect((await usage(unknownKey(), '203.0.113.7', `203.0.113.7, ${attacker}`)).status).toBe(429);
    expect(keyReads.count).toBe(reads);

    // Another address: its own count, untouched.
    const wrongThere = await usage(unknownKey(), neighbour);
    expect(wrongThere.status).toBe(401);
    expect(wrongThere.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    expect((await usage(tenant.key, neighbour)).status).toBe(200);
    // From the limited address, a key this process has verified still passes; one it would
    // have to read waits for the window to end.
    const good = await usage(cachedElsewhere.key, attacker);
    expect(good.status).toBe(200);
    expect(good.body.data).toBeDefined();
    expect((await usage(neverUsed.key, attacker)).status).toBe(429);
    expect(await keyRows()).toBe(before);
    const untouched = await api.db.selectFrom('api_keys').select('last_used_at').where('id', '=', neverUsed.keyId).executeTakeFirstOrThrow();
    expect(untouched.last_used_at).toBeNull();
  });

  it('issue 26 item 12: without a trusted proxy, X-Forwarded-For is ignored and the connection counts', async () => {
    const direct = await startTestApi({ RATE_LIMIT_AUTH_FAILURES: '2', TRUST_PROXY_HOPS: '0' });
    try {
      await startOfAQuietWindow();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await request(direct.baseUrl, 'GET', '/v1/usage', { headers: { ...bearer(`dk_${randomBytes(8).toString('hex')}_${'a'.repeat(40)}`), 'x-forwarded-for': freshAddress() } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 429, 429]);
    } finally {
      await direct.close();
    }
  });
});
