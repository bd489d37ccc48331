import { sql, type ColumnType, type Generated, type RawBuilder } from 'kysely';
import type { Db } from './create-db';

/** One repair the reconciler made; (subject, kind) is unique, which is what makes it happen once. */
export interface ReconcilerRepairTable {
  id: Generated<number>;
  subject: string;
  kind: string;
  detail: string;
  created_at: ColumnType<Date, never, never>;
}

/** Records a repair; false when this exact repair was already made, so it is not made twice. */
export async function recordRepairOnce(db: Db, repair: { subject: string; kind: string; detail: string }): Promise<boolean> {
  const inserted = await db
    .insertInto('reconciler_repairs')
    .values(repair)
    .onConflict((oc) => oc.columns(['subject', 'kind']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Takes back a repair recorded but not made (its workflow did not start), so a later pass tries it again. */
export async function forgetRepair(db: Db, repair: { subject: string; kind: string }): Promise<void> {
  await db.deleteFrom('reconciler_repairs').where('subject', '=', repair.subject).where('kind', '=', repair.kind).execute();
}

/** The instant `seconds` before now by the database's clock: what the reconciler calls stale is unchanged since then. */
export function secondsAgo(seconds: number): RawBuilder<Date> {
  return sql<Date>`now() - make_interval(secs => ${seconds})`;
}
