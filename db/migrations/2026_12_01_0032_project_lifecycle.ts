import { Kysely } from 'kysely';

// Frozen in time. A customer's cancel and delete (docs/lifecycle.md): `cancelled_at` records that
// the customer asked to cancel (the workflows settle the money; a restarted project workflow
// settles at once), `deleted_at` is the tombstone of a deleted project. The row stays because the
// ledger, webhook events and reconciler repairs name the project; its content (source,
// transcript, segments, deliverables) is removed, and every customer read filters the tombstone.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('cancelled_at', 'timestamptz').addColumn('deleted_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('cancelled_at').dropColumn('deleted_at').execute();
}
