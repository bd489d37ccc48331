import { Client } from 'pg';
import { testState } from './test-state';

export default async function globalTeardown(): Promise<void> {
  await testState.temporal?.stop();
  if (testState.database && !process.env.KEEP_TEST_DATABASE) {
    const admin = new Client({ connectionString: testState.database.adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${testState.database.name} WITH (FORCE)`);
    await admin.end();
  }
}
