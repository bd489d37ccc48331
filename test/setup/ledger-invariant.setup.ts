import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';
import { createdWorkspaceIds } from '../helpers/fixtures';
import { findLedgerViolations } from '../helpers/ledger-invariant';

// After every test: the money invariant holds for every workspace the test file created.
// Checked against the live database in one snapshot (see findLedgerViolations).

let db: Kysely<any> | undefined;

afterEach(async () => {
  if (createdWorkspaceIds.size === 0 || !process.env.DATABASE_URL) return;
  db ??= new Kysely<any>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: process.env.DATABASE_URL, max: 1 }) }) });
  const violations = await findLedgerViolations(db, [...createdWorkspaceIds]);
  expect(violations).toEqual([]);
});

afterAll(async () => {
  await db?.destroy();
});
