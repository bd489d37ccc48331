import { Kysely, sql } from 'kysely';

// Frozen in time. What settling every way out of a project needs:
// - `attempt_charged_seconds`: what the language's current attempt was charged (the project's
//   capture for attempt 1, a retry's own charge later, 0 for a goodwill retry), so a failure
//   refunds exactly that attempt once.
// - `goodwill_seconds`: seconds delivered free by an operator's goodwill retry, on the record.
// - `failure_detail`: the internal reason (engine stderr, paths) kept for operators; clients see
//   only the code and a safe message.
// - `reconciler_repairs`: one row per repair the reconciler made; its unique key is what makes a
//   repair happen once.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('project_languages')
    .addColumn('attempt_charged_seconds', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`attempt_charged_seconds >= 0`),
    )
    .addColumn('goodwill_seconds', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`goodwill_seconds >= 0`),
    )
    .addColumn('failure_detail', 'text')
    .execute();
  // Languages created before this migration were all charged by the project's capture.
  await sql`update project_languages set attempt_charged_seconds = charged_seconds where attempt = 1`.execute(db);
  await db.schema.alterTable('projects').addColumn('failure_detail', 'text').execute();

  await db.schema
    .createTable('reconciler_repairs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('reconciler_repairs_once', ['subject', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reconciler_repairs').execute();
  await db.schema.alterTable('projects').dropColumn('failure_detail').execute();
  await db.schema.alterTable('project_languages').dropColumn('attempt_charged_seconds').dropColumn('goodwill_seconds').dropColumn('failure_detail').execute();
}
