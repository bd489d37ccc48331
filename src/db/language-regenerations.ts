import type { ColumnType, Selectable, Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';

/** One paid regeneration of a language's changed lines (docs/editing.md#regenerate). */
export interface LanguageRegenerationTable {
  id: string;
  project_id: string;
  workspace_id: string;
  locale: string;
  status: 'running' | 'completed' | 'failed';
  /** How many lines change. */
  segments: number;
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  from_revision: number;
  to_revision: number | null;
  refunded_credits: ColumnType<number, number | undefined, number>;
  failure_code: string | null;
  idempotency_key: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  completed_at: Date | null;
}

export type LanguageRegeneration = Selectable<LanguageRegenerationTable>;

export async function findRegeneration(db: Db, regenerationId: string): Promise<LanguageRegeneration | undefined> {
  return db.selectFrom('language_regenerations').selectAll().where('id', '=', regenerationId).executeTakeFirst();
}

/** The regeneration row, locked: its outcome (published or failed and refunded) is settled under this lock, once. */
export async function lockRegeneration(trx: Transaction<Database>, regenerationId: string): Promise<LanguageRegeneration | undefined> {
  return trx.selectFrom('language_regenerations').selectAll().where('id', '=', regenerationId).forUpdate().executeTakeFirst();
}

export async function updateRegeneration(
  trx: Db,
  regenerationId: string,
  changes: Partial<Pick<LanguageRegeneration, 'status' | 'to_revision' | 'refunded_credits' | 'failure_code' | 'completed_at'>>,
): Promise<void> {
  await trx.updateTable('language_regenerations').set(changes).where('id', '=', regenerationId).execute();
}
