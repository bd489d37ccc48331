import { Kysely, sql } from 'kysely';

// Frozen in time: the published files of each language, and the source transcript.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deliverables')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('audio', 'subtitles', 'thumbnail')`))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('deliverables_pk', ['project_id', 'locale', 'type', 'format'])
    .execute();

  await db.schema
    .createTable('transcript_segments')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('start_seconds', 'double precision', (c) => c.notNull())
    .addColumn('end_seconds', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('transcript_segments_pk', ['project_id', 'position'])
    .addCheckConstraint('transcript_segments_times', sql`end_seconds >= start_seconds and start_seconds >= 0`)
    .execute();

  // Each language's translated segments, written by the translate step, read by the dub step.
  await db.schema.alterTable('project_languages').addColumn('translated_segments', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('translated_segments').execute();
  await db.schema.dropTable('transcript_segments').ifExists().execute();
  await db.schema.dropTable('deliverables').ifExists().execute();
}
