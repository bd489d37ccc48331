import { Kysely, sql } from 'kysely';

// Frozen in time. Signed webhooks: the endpoints a workspace registered, the events its projects
// emitted (an outbox: one row per state change, numbered per project), one delivery per event and
// endpoint (plus operator redeliveries), and every attempt of every delivery.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // List order and cursor position, as for projects.
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    // Needed in clear to sign each delivery; shown in full only by the create response.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled_events', sql`text[]`, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Soft delete: the delivery log keeps pointing at the endpoint.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_endpoints_workspace_seq_idx').on('webhook_endpoints').columns(['workspace_id', 'seq desc']).where(sql.ref('deleted_at'), 'is', null).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    // 1, 2, 3 … per project: receivers order by it, and delivery N waits for N-1.
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // What makes this change unique within the project (a locale and attempt, an ending's time):
    // a retried activity finds its event already there and emits nothing twice.
    .addColumn('discriminator', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('webhook_events_project_sequence_key', ['project_id', 'sequence'])
    .addUniqueConstraint('webhook_events_project_change_key', ['project_id', 'type', 'discriminator'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('webhook_events.id'))
    // Set for an operator's redelivery (webhooks:redeliver): a new delivery id, same event.
    .addColumn('redelivery_of', 'uuid', (c) => c.references('webhook_deliveries.id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addCheckConstraint('webhook_deliveries_status_check', sql`status in ('pending', 'delivered', 'failed')`)
    .execute();
  // One original delivery per event and endpoint, however often the emitter is retried.
  await db.schema.createIndex('webhook_deliveries_original_key').unique().on('webhook_deliveries').columns(['event_id', 'endpoint_id']).where(sql.ref('redelivery_of'), 'is', null).execute();
  await db.schema.createIndex('webhook_deliveries_pending_idx').on('webhook_deliveries').columns(['endpoint_id', 'event_id']).where(sql.ref('status'), '=', 'pending').execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('endpoint_id', 'uuid', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    // Null when no response came back (refused target, timeout, connection error): see error.
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('webhook_delivery_attempts_key', ['delivery_id', 'attempt'])
    .execute();
  await db.schema.createIndex('webhook_delivery_attempts_endpoint_idx').on('webhook_delivery_attempts').columns(['endpoint_id', 'seq desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
