import type { ColumnType, Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';

/** One paid language addition (see db/migrations/2026_11_23_0011_language_additions.ts). */
export interface LanguageAdditionTable {
  id: string;
  project_id: string;
  workspace_id: string;
  locales: string[];
  billable_seconds: number;
  credits: number;
  idempotency_key: string;
  created_at: ColumnType<Date, never, never>;
}

export async function insertLanguageAddition(trx: Transaction<Database>, row: Omit<LanguageAdditionTable, 'created_at'>): Promise<void> {
  await trx.insertInto('language_additions').values(row).execute();
}

/** How many times languages were added to a project: each addition may reopen it once more. */
export async function countLanguageAdditions(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('language_additions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
