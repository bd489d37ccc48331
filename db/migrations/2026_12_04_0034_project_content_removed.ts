import { Kysely, sql } from 'kysely';

// Frozen in time. A delete in two steps (docs/lifecycle.md#delete): `deleted_at` is set under the
// project's lock once nothing of it runs (the tombstone: every read and every writer refuses it
// from then on), then its blobs and content rows are removed and `content_removed_at` records
// that the removal finished. A tombstone without it is a removal to finish (a DELETE retried).
// Tombstones from before this column were removed whole in one go: they count as finished.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('content_removed_at', 'timestamptz').execute();
  await sql`update projects set content_removed_at = deleted_at where deleted_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('content_removed_at').execute();
}
