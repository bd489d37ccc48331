import { Kysely, sql } from 'kysely';

// Frozen in time. What the video search's live Data API lookups of an exact video id remember,
// shared by every API process (the quota is the service's, not a process's):
// - `youtube_lookup_misses`: an id looked up and not found in the channel it was asked for, with
//   the channel it does belong to (null: no such video). Within the miss TTL the same id asked
//   for any other channel is answered from the mirror without a call; older rows are deleted as
//   new misses are written.
// - `youtube_lookup_budgets`: live lookups each workspace made per clock hour; past the budget the
//   search answers from the mirror only. A workspace's older hours are deleted as a new one starts.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('youtube_lookup_misses')
    .addColumn('video_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_channel_id', 'text')
    .addColumn('looked_up_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('youtube_lookup_misses_looked_up_at_idx').on('youtube_lookup_misses').column('looked_up_at').execute();
  await db.schema
    .createTable('youtube_lookup_budgets')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().check(sql`used >= 0`))
    .addPrimaryKeyConstraint('youtube_lookup_budgets_pkey', ['workspace_id', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('youtube_lookup_budgets').execute();
  await db.schema.dropTable('youtube_lookup_misses').execute();
}
