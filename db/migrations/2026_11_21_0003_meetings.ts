import { Kysely, sql } from 'kysely';

// Frozen in time: this file must keep producing the same schema whatever the app code becomes,
// so it uses Kysely<any> and imports nothing from src/.
//
// Meetings synced from the notes product. The API is read-only; rows arrive through the
// console import (and the dev seed), so the CHECKs here are what keeps bad imports out.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meetings')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull())
    // Kept as the product reports it: a paused recording is shorter than ended - started.
    .addColumn('duration_seconds', 'integer', (c) => c.notNull().check(sql`duration_seconds >= 0`))
    .addColumn('tags', 'jsonb', (c) =>
      c
        .notNull()
        .defaultTo(sql`'[]'::jsonb`)
        .check(sql`jsonb_typeof(tags) = 'array'`),
    )
    .addColumn('sync_state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('synced')
        .check(sql`sync_state in ('synced', 'local_only')`),
    )
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('transcript_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('transcript_segments', 'jsonb', (c) =>
      c
        .notNull()
        .defaultTo(sql`'[]'::jsonb`)
        .check(sql`jsonb_typeof(transcript_segments) = 'array'`),
    )
    .addColumn('notes', 'jsonb', (c) =>
      c
        .notNull()
        .defaultTo(sql`'[]'::jsonb`)
        .check(sql`jsonb_typeof(notes) = 'array'`),
    )
    .addColumn('summary', 'text')
    .addColumn('summary_generated_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('meetings_ends_after_start', sql`ended_at >= started_at`)
    .execute();

  // The list endpoint's index. Partial on exactly the "listed" filter, so it holds only rows the
  // API can return; keyed in the listing order so a deep OFFSET is skipped by an index-only scan
  // (owner, started_at, id are all the skip needs; nothing heavy is included).
  await sql`
    create index meetings_owner_listed_idx
      on meetings (owner_user_id, started_at desc, id desc)
      where sync_state = 'synced' and deleted_at is null and not hidden
  `.execute(db);

  // Sharing only ever hides a meeting from the API (only owners read), but the product keeps it,
  // and the import records it so a shared meeting is never mistaken for the caller's own.
  await db.schema
    .createTable('meeting_shares')
    .addColumn('meeting_id', 'uuid', (c) => c.notNull().references('meetings.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('meeting_shares_pkey', ['meeting_id', 'user_id'])
    .execute();
  await db.schema.createIndex('meeting_shares_user_idx').on('meeting_shares').columns(['user_id', 'meeting_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meeting_shares').ifExists().execute();
  await db.schema.dropTable('meetings').ifExists().execute();
}
