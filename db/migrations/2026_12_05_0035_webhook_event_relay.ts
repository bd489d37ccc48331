import { Kysely, sql } from 'kysely';

// Frozen in time. Webhook events become an outbox (docs/webhooks.md#delivery-retries-ordering): each lifecycle
// transition appends its events in its own transaction, and a relay starts their deliveries after
// the commit and marks the event `relayed_at`. An event without it is one whose deliveries may not
// have been started yet (a worker lost between the commit and the relay): the next relay of its
// project starts them. Events from before this column were relayed by the emitter that wrote them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_events').addColumn('relayed_at', 'timestamptz').execute();
  await sql`update webhook_events set relayed_at = created_at`.execute(db);
  await sql`create index webhook_events_unrelayed on webhook_events (project_id, sequence) where relayed_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists webhook_events_unrelayed`.execute(db);
  await db.schema.alterTable('webhook_events').dropColumn('relayed_at').execute();
}
