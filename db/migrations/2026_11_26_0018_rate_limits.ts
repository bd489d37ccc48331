import { Kysely, sql } from 'kysely';

// Frozen in time. Request counts per API key, bucket (`read` or `write`) and fixed window,
// shared by every API process: each adds what it served and reads back the total, so a key's
// limit holds across the whole fleet, not per process. Old windows are deleted as they pass.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull().check(sql`bucket in ('read', 'write')`))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().check(sql`count >= 0`))
    .addPrimaryKeyConstraint('rate_limit_counters_pkey', ['api_key_id', 'bucket', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limit_counters_window_idx').on('rate_limit_counters').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_counters').execute();
}
