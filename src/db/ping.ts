import { sql } from 'kysely';
import type { Db } from './create-db';

/** One round trip to PostgreSQL: resolves when the database answers, rejects when it cannot. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
