import { Kysely, sql } from 'kysely';

// Frozen in time. Segments become the unit of the dub (docs/editing.md): the source transcript a
// customer can read, replace and edit (`source_segments`), each language's lines made from it
// (`language_segments`, with what the published revision was rendered from, so a re-render knows
// which lines changed), and the paid regenerations of a language (`language_regenerations`).
// `transcript_segments` stays as the recognizer heard it and `verified_transcript_segments` as
// the reviewer submitted it: records, not what the dub is made from.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('transcript_source', 'text', (c) => c.check(sql`transcript_source in ('machine', 'supplied', 'edited', 'verified')`))
    .execute();

  await db.schema
    .createTable('source_segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('start_seconds', 'double precision', (c) => c.notNull().check(sql`start_seconds >= 0`))
    .addColumn('end_seconds', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('source_segments_timing', sql`end_seconds > start_seconds`)
    .addUniqueConstraint('source_segments_position', ['project_id', 'position'])
    .execute();

  await db.schema
    .createTable('language_segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    // Null for a supplied translation's cue that overlaps no source segment, or once its source
    // segment was replaced by a new transcript.
    .addColumn('source_segment_id', 'text', (c) => c.references('source_segments.id').onDelete('set null'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('start_seconds', 'double precision', (c) => c.notNull().check(sql`start_seconds >= 0`))
    .addColumn('end_seconds', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('current', 'stale', 'edited')`))
    // What the published revision played for this line: a re-render synthesizes only the lines
    // whose text differs, and keeps the others' clips and places untouched.
    .addColumn('rendered_text', 'text')
    .addColumn('clip_key', 'text')
    .addColumn('clip_seconds', 'double precision')
    .addColumn('placed_start_seconds', 'double precision')
    .addColumn('placed_end_seconds', 'double precision')
    .addColumn('tempo', 'double precision')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('language_segments_timing', sql`end_seconds > start_seconds`)
    .addForeignKeyConstraint('language_segments_language', ['project_id', 'locale'], 'project_languages', ['project_id', 'locale'], (fk) => fk.onDelete('cascade'))
    .addUniqueConstraint('language_segments_position', ['project_id', 'locale', 'position'])
    .execute();
  await db.schema.createIndex('language_segments_source').on('language_segments').column('source_segment_id').execute();

  // A translation supplied at create, as parsed cues ([{start_seconds, end_seconds, text}]):
  // taken as given when the language is dubbed, instead of machine translation.
  await db.schema.alterTable('project_languages').addColumn('supplied_translation', 'jsonb').execute();

  await db.schema
    .createTable('language_regenerations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed')`))
    .addColumn('segments', 'integer', (c) => c.notNull().check(sql`segments > 0`))
    .addColumn('billable_seconds', 'integer', (c) => c.notNull().check(sql`billable_seconds > 0`))
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits >= 0`))
    .addColumn('max_billable_seconds', 'integer', (c) => c.notNull())
    .addColumn('from_revision', 'integer', (c) => c.notNull())
    .addColumn('to_revision', 'integer')
    .addColumn('refunded_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_code', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addForeignKeyConstraint('language_regenerations_language', ['project_id', 'locale'], 'project_languages', ['project_id', 'locale'])
    .execute();
  // One regeneration at a time per language: a second one is refused while the first runs.
  await sql`create unique index language_regenerations_one_running on language_regenerations (project_id, locale) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('language_regenerations').execute();
  await db.schema.alterTable('project_languages').dropColumn('supplied_translation').execute();
  await db.schema.dropTable('language_segments').execute();
  await db.schema.dropTable('source_segments').execute();
  await db.schema.alterTable('projects').dropColumn('transcript_source').execute();
}
