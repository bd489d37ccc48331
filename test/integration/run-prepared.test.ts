import { sql } from 'kysely';
import { createDb, runPrepared, type Db } from '../../src/db/create-db';
import { testConfig } from '../helpers/test-api';

// runPrepared: the hot reads' path straight to the pool. It must still send a named prepared
// statement, run inside a transaction on that transaction's connection, and fail like pg does.

let db: Db;
beforeAll(() => { db = createDb({ url: testConfig().database.url!, poolMax: 2 }); });
afterAll(() => db.destroy());

it('sends a named prepared statement and returns its rows', async () => {
  // pg_prepared_statements lists the session's statements, this one included while it runs.
  const rows = await runPrepared<{ name: string; answer: number }>(db, "select name, $1::int + 1 as answer from pg_prepared_statements where statement like '%run_prepared_probe%' /* run_prepared_probe */", [41]);
  expect(rows).toEqual([{ name: expect.stringMatching(/^s_[0-9a-f]{24}$/), answer: 42 }]);
});

it('runs on the transaction connection inside a transaction', async () => {
  const seen = await db.transaction().execute(async (trx) => {
    await sql`create temporary table run_prepared_probe (n int) on commit drop`.execute(trx);
    await sql`insert into run_prepared_probe values (7)`.execute(trx);
    // A temporary table exists only on this connection: the pool's other one would not see it.
    return runPrepared<{ n: number }>(trx, 'select n from run_prepared_probe where n = $1', [7]);
  });
  expect(seen).toEqual([{ n: 7 }]);
});

it('rejects with the database error and a stack that leads back to the caller', async () => {
  const failed = await runPrepared(db, 'select 1 / $1::int as x', [0]).catch((err: unknown) => err);
  expect(failed).toMatchObject({ code: '22012' }); // division_by_zero
  expect((failed as Error).stack).toContain('run-prepared.test.ts');
});
