import { Kysely, sql } from 'kysely';

// Frozen in time: human transcript review (issue 10).
// - `transcript_reviews`: one paid review per project, the operational record behind the
//   public state that stays on `projects.transcript_review_*` (shown by GET, so its changes
//   bump view_version through the projects trigger).
// - `verified_transcript_segments`: the reviewer's transcript; the machine one in
//   `transcript_segments` is kept as recognized (reviewers export it).
// - `project_languages.revision` (shown by GET; the existing trigger bumps view_version on any
//   change of a language row) and `transcript_kind`, which transcript a language was translated
//   from, so a verified transcript re-dubs exactly the languages made from the machine one.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addCheckConstraint('projects_transcript_review_status', sql`transcript_review_status in ('not_requested', 'requested', 'in_review', 'verified', 'expired')`)
    .execute();

  await db.schema
    .createTable('transcript_reviews')
    .addColumn('project_id', 'uuid', (c) => c.primaryKey().references('projects.id'))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('requested', 'in_review', 'verified', 'expired')`))
    .addColumn('billable_seconds', 'integer', (c) => c.notNull().check(sql`billable_seconds > 0`))
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits > 0`))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deadline_at', 'timestamptz', (c) => c.notNull())
    .addColumn('reviewer', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('verified_at', 'timestamptz')
    .addColumn('expired_at', 'timestamptz')
    .addColumn('refunded_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The reviewers' queue: open reviews, oldest first.
  await sql`create index transcript_reviews_queue_idx on transcript_reviews (requested_at) where status in ('requested', 'in_review')`.execute(db);

  await db.schema
    .createTable('verified_transcript_segments')
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('start_seconds', 'double precision', (c) => c.notNull())
    .addColumn('end_seconds', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('verified_transcript_segments_pk', ['project_id', 'position'])
    .addCheckConstraint('verified_transcript_segments_times', sql`end_seconds > start_seconds and start_seconds >= 0`)
    .execute();

  await db.schema
    .alterTable('project_languages')
    .addColumn('revision', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`revision >= 1`),
    )
    .addColumn('transcript_kind', 'text', (c) => c.check(sql`transcript_kind in ('machine', 'verified')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('transcript_kind').dropColumn('revision').execute();
  await db.schema.dropTable('verified_transcript_segments').ifExists().execute();
  await db.schema.dropTable('transcript_reviews').ifExists().execute();
  await db.schema.alterTable('projects').dropConstraint('projects_transcript_review_status').execute();
}
