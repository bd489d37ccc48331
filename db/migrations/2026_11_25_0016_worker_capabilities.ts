import { Kysely, sql } from 'kysely';

// Frozen in time. One row per worker process: what its engines serve (locales, voices,
// translation routes and pivots, engine versions) and the media task queue it polls, renewed by
// a heartbeat. The API reads the union of the live rows (expires_at in the future) of its task
// queue; expired rows stay as the last known capabilities and are pruned by the workers.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('worker_capabilities')
    .addColumn('worker_id', 'text', (c) => c.primaryKey())
    // The deployment's workflow task queue (TEMPORAL_TASK_QUEUE): workers and API processes that
    // share it form one fleet.
    .addColumn('task_queue', 'text', (c) => c.notNull())
    // Null for a worker that runs workflows and database steps only: it serves no locale.
    .addColumn('media_task_queue', 'text')
    .addColumn('capabilities', 'jsonb', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('worker_capabilities_expiry_check', sql`expires_at >= heartbeat_at`)
    .execute();
  await db.schema.createIndex('worker_capabilities_fleet_idx').on('worker_capabilities').columns(['task_queue', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('worker_capabilities').execute();
}
