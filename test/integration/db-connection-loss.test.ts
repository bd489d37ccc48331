import { sql } from 'kysely';
import { Client } from 'pg';
import { createDb, type Db } from '../../src/db/create-db';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable';
import { waitFor } from '../helpers/wait-for';

// A connection that dies while checked out, between two statements of a transaction (what a
// PostgreSQL restart does to a worker mid-step; the chaos suite found it killing the worker).
// The process must live on: the next statement fails as "database unavailable" (the step
// retries, the API answers 503), and the pool serves the next query on a fresh connection.
// Only this test's own backend is terminated, on the run's database.

let db: Db;
let admin: Client;

beforeAll(async () => {
  db = createDb({ url: process.env.DATABASE_URL!, poolMax: 2 });
  admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await db.destroy();
});

it('survives its connection dying mid-transaction, reports it as the database unavailable, and recovers', async () => {
  const failure = await db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      const pid = rows[0]!.pid;
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await waitFor('the backend to be gone', async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0, 10_000, 50);
      // Let the closed socket reach the client while no statement is running on it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return sql`select 1`.execute(trx).then(
        () => undefined,
        (err: unknown) => err,
      );
    })
    .catch((err: unknown) => err);
  expect(failure).toBeDefined();
  expect(isDatabaseUnavailable(failure)).toBe(true);

  const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
  expect(rows).toEqual([{ ok: 1 }]);
});
