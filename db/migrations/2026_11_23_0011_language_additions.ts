import { Kysely, sql } from 'kysely';

// Frozen in time. One row per paid language addition (POST .../languages, not a preview): which
// locales it added to which project, what it charged, and under which Idempotency-Key. The
// charges themselves are ledger entries (`<project>:<locale>:charge:1`); this is the record an
// operator reads, and the reconciler counts a project's additions so that a project reopened by
// a new addition may be restarted once more.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('language_additions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id'))
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('locales', sql`text[]`, (c) => c.notNull().check(sql`cardinality(locales) > 0`))
    .addColumn('billable_seconds', 'integer', (c) => c.notNull().check(sql`billable_seconds > 0`))
    .addColumn('credits', 'bigint', (c) => c.notNull().check(sql`credits > 0`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('language_additions_project_idx').on('language_additions').columns(['project_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('language_additions').execute();
}
