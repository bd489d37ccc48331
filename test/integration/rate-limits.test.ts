import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// Per-key limits, counted apart for reads and writes, shared by every API process through
// PostgreSQL (docs/rate-limits.md). Two real apps on one database stand for two API processes.

const WINDOW_SECONDS = 3600;
const LIMITS = { RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), RATE_LIMIT_READS: '5', RATE_LIMIT_WRITES: '3', RATE_LIMIT_SYNC_MS: '60000' };

let a: TestApi;
let b: TestApi;
beforeAll(async () => {
  // A window boundary mid-test would reset the counts; start in a window with time to spare.
  const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
  if (left < 300_000) await new Promise((r) => setTimeout(r, left + 1000));
  [a, b] = await Promise.all([startTestApi(LIMITS), startTestApi(LIMITS)]);
}, 400_000);
afterAll(() => Promise.all([a?.close(), b?.close()]));

const getUsage = (api: TestApi, tenant: TestTenant) => request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) });
/** A write the validator refuses: it still counts against the limit, and writes no row. */
const invalidCreate = (api: TestApi, tenant: TestTenant) => createProject(api, tenant, projectBody({ name: '' }));

async function counter(api: TestApi, tenant: TestTenant, bucket: 'read' | 'write'): Promise<number | undefined> {
  const row = await api.db.selectFrom('rate_limit_counters').select('count').where('api_key_id', '=', tenant.keyId).where('bucket', '=', bucket).executeTakeFirst();
  return row?.count;
}

describe('rate limits per API key', () => {
  it('lets a key read its limit, then answers 429 with Retry-After and RateLimit-* headers', async () => {
    const tenant = await createTenant(a.db);
    for (let i = 0; i < 5; i++) {
      const res = await getUsage(a, tenant);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i));
      expect(res.headers.get('ratelimit-policy')).toBe(`5;w=${WINDOW_SECONDS}`);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const refused = await getUsage(a, tenant);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.body.error.message).toMatch(/limit is 5 per 3600 seconds/);
    expect(refused.body.error.request_id).toEqual(expect.any(String));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    // Writes are counted apart: the read limit does not stop them.
    const write = await invalidCreate(a, tenant);
    expect(write.status).toBe(400);
    expect(write.headers.get('ratelimit-limit')).toBe('3');
    expect(write.headers.get('ratelimit-remaining')).toBe('2');

    // The limit is per key: another key of the same workspace still reads.
    const other = await createTenant(a.db);
    expect((await getUsage(a, other)).status).toBe(200);

    await a.rateLimiter.sync();
    expect(await counter(a, tenant, 'read')).toBe(5);
  });

  it('refuses the write over the limit before it does anything: no project, no hold, no idempotency row', async () => {
    const tenant = await createTenant(a.db, { credits: 100_000 });
    for (let i = 0; i < 3; i++) expect((await invalidCreate(a, tenant)).status).toBe(400);
    const before = await workspaceRowCounts(a, tenant.workspace.id);
    const refused = await createProject(a, tenant, projectBody());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.body.error.message).toMatch(/writes/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await workspaceRowCounts(a, tenant.workspace.id)).toEqual(before);
    expect(before.projects).toBe(0);
    // Reads are still allowed.
    expect((await getUsage(a, tenant)).status).toBe(200);
  });

  it('shares writes across API processes exactly: the second process refuses the first write past the limit', async () => {
    const tenant = await createTenant(a.db);
    for (let i = 0; i < 3; i++) expect((await invalidCreate(a, tenant)).status).toBe(400);
    const onB = await invalidCreate(b, tenant);
    expect(onB.status).toBe(429);
    expect(onB.body.error.code).toBe('rate_limited');
    // A refused write is not counted: the count says how many writes were granted.
    expect(await counter(a, tenant, 'write')).toBe(3);
    await b.rateLimiter.sync();
    expect(await counter(a, tenant, 'write')).toBe(3);
  });

  it('issue 27 item 4: two API processes share one write limit, and the shared count is exactly what was granted after every request, with no sync', async () => {
    const tenant = await createTenant(a.db);
    for (const [i, api] of [a, b, a].entries()) {
      const res = await invalidCreate(api, tenant);
      expect(res.status).toBe(400);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(2 - i));
      expect(await counter(a, tenant, 'write')).toBe(i + 1);
    }
    for (const api of [b, a, b]) {
      const refused = await invalidCreate(api, tenant);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await counter(a, tenant, 'write')).toBe(3);
    }
  });

  it('grants exactly the limit to concurrent writes spread over two processes, and counts only those', async () => {
    const tenant = await createTenant(a.db);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => invalidCreate(i % 2 ? a : b, tenant)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    await Promise.all([a.rateLimiter.sync(), b.rateLimiter.sync()]);
    expect(await counter(a, tenant, 'write')).toBe(3);
  });

  it('shares reads across API processes once they sync', async () => {
    const tenant = await createTenant(a.db);
    for (let i = 0; i < 5; i++) expect((await getUsage(a, tenant)).status).toBe(200);
    await a.rateLimiter.sync();
    // B has not synced since A's reads: it serves one, and learns the fleet's total as it syncs it.
    expect((await getUsage(b, tenant)).status).toBe(200);
    await b.rateLimiter.sync();
    expect(await counter(b, tenant, 'read')).toBe(6);
    const refused = await getUsage(b, tenant);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('never limits a request without a valid key (it is refused as unauthenticated first)', async () => {
    const res = await request(a.baseUrl, 'GET', '/v1/usage', { headers: bearer('dk_nope') });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});
