import { rmSync } from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import { Client, Pool } from 'pg';
import { findLedgerViolations } from '../helpers/ledger-invariant';
import { testState } from './test-state';

/** The money invariant over the whole test database, once every test file has finished. */
async function checkWholeLedger(url: string): Promise<void> {
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: url, max: 1 }) }) });
  try {
    const violations = await findLedgerViolations(db, 'all');
    if (violations.length > 0) throw new Error(`ledger invariant violated after the run:\n${violations.map((v) => `  ${v.workspaceId}: ${v.problem}`).join('\n')}`);
    process.stdout.write('[global-teardown] ledger invariant holds for every workspace\n');
  } finally {
    await db.destroy();
  }
}

export default async function globalTeardown(): Promise<void> {
  try {
    if (testState.database) await checkWholeLedger(testState.database.url);
  } finally {
    await teardown();
  }
}

async function teardown(): Promise<void> {
  await testState.temporal?.stop();
  await testState.s3?.server.stop();
  if (testState.s3) rmSync(testState.s3.dataDir, { recursive: true, force: true });
  if (testState.database && !process.env.KEEP_TEST_DATABASE) {
    const admin = new Client({ connectionString: testState.database.adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${testState.database.name} WITH (FORCE)`);
    await admin.end();
  }
}
