import { Kysely } from 'kysely';

// Frozen in time. A fencing token for the idempotency lock: each request that takes the lock
// (first claim or takeover of a stale one) writes a fresh token, and writes its recovery point
// and final response only where the token is still its own. A request that stalled past the
// lock timeout, and was taken over by a retry, then fails instead of committing a second copy
// of the paid work. Null on rows locked before this migration and on finished rows.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('lock_token', 'uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('lock_token').execute();
}
