import { sql, type ColumnType, type RawBuilder, type Selectable, type Transaction } from 'kysely';
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

/** The language's regeneration still running, if any: there is at most one (language_regenerations_one_running). */
export async function findRunningRegeneration(db: Db, projectId: string, locale: string): Promise<LanguageRegeneration | undefined> {
  return db.selectFrom('language_regenerations').selectAll().where('project_id', '=', projectId).where('locale', '=', locale).where('status', '=', 'running').executeTakeFirst();
}

/**
 * How many regenerations the language has had: counted under the language's row lock right
 * after inserting one, it is that one's number `n` in its workflow id (regenerationWorkflowId).
 */
export async function countLanguageRegenerations(db: Db, projectId: string, locale: string): Promise<number> {
  const row = await db
    .selectFrom('language_regenerations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('project_id', '=', projectId)
    .where('locale', '=', locale)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The locales of the project whose regeneration is still running. */
export async function listRunningRegenerationLocales(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('language_regenerations').select('locale').where('project_id', '=', projectId).where('status', '=', 'running').orderBy('locale').execute();
  return rows.map((r) => r.locale);
}

export async function findRegeneration(db: Db, regenerationId: string): Promise<LanguageRegeneration | undefined> {
  return db.selectFrom('language_regenerations').selectAll().where('id', '=', regenerationId).executeTakeFirst();
}

/** The regeneration row, locked: its outcome (published or failed and refunded) is settled under this lock, once. */
export async function lockRegeneration(trx: Transaction<Database>, regenerationId: string): Promise<LanguageRegeneration | undefined> {
  return trx.selectFrom('language_regenerations').selectAll().where('id', '=', regenerationId).forUpdate().executeTakeFirst();
}

/** A running regeneration, with its number `n` in its workflow id (regenerationWorkflowId). */
export type NumberedRegeneration = Pick<LanguageRegeneration, 'id' | 'project_id' | 'workspace_id' | 'locale' | 'created_at'> & { number: number };

/**
 * Regenerations still `running` that were committed before `staleBefore`, for the reconciler,
 * oldest first. Each one's number is its rank among its language's regenerations by creation:
 * the count the API took right after inserting it (countLanguageRegenerations), since a
 * language's regenerations are committed one at a time.
 */
export async function listStaleRunningRegenerations(db: Db, input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number }): Promise<NumberedRegeneration[]> {
  let rows = db
    .selectFrom('language_regenerations as r')
    .select(['r.id', 'r.project_id', 'r.workspace_id', 'r.locale', 'r.created_at'])
    .select((eb) =>
      eb
        .selectFrom('language_regenerations as earlier')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('earlier.project_id', '=', 'r.project_id')
        .whereRef('earlier.locale', '=', 'r.locale')
        .where(sql<boolean>`(earlier.created_at, earlier.id) <= (r.created_at, r.id)`)
        .as('number'),
    )
    .where('r.status', '=', 'running')
    .where('r.created_at', '<', input.staleBefore);
  if (input.workspaceId) rows = rows.where('r.workspace_id', '=', input.workspaceId);
  const found = await rows.orderBy('r.created_at').limit(input.limit).execute();
  return found.map((row) => ({ ...row, number: Number(row.number) }));
}
