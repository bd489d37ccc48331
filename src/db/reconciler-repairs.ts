import type { ColumnType, Generated } from 'kysely';
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
