import { RateLimiter } from '../../../src/api/rate-limit/rate-limiter';
import { createDb } from '../../../src/db/create-db';
import { createLogger } from '../../../src/logger';

// The limiter with its counter store unreachable (a database on a port nobody listens on): the
// shared counting itself is exercised on a real database by test/integration/rate-limits.test.ts.

const db = createDb({ url: 'postgres://nobody@127.0.0.1:1/none', poolMax: 1, connectTimeoutMs: 1000 });
afterAll(() => db.destroy());

it('issue 27 item 4: with the counter store down, writes are let through without a count and reads are still limited by what this process served', async () => {
  const limiter = new RateLimiter(db, { windowSeconds: 3600, limits: { read: 2, write: 1 }, syncIntervalMs: 60_000 }, createLogger('error'));
  // Writes: each statement fails, so each write passes uncounted (no RateLimit-* headers) rather
  // than the API failing with the store.
  for (let i = 0; i < 3; i++) expect(await limiter.take('key_1', 'write')).toBeNull();
  // Reads are counted in memory first: the limit still holds in this process.
  expect(await limiter.take('key_1', 'read')).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
  expect(await limiter.take('key_1', 'read')).toMatchObject({ allowed: true, remaining: 0 });
  expect(await limiter.take('key_1', 'read')).toMatchObject({ allowed: false, remaining: 0 });
  expect(await limiter.take('key_2', 'read')).toMatchObject({ allowed: true, remaining: 1 });
  // Closing tries one last sync; its failure is logged, not thrown.
  await expect(limiter.close()).resolves.toBeUndefined();
});
