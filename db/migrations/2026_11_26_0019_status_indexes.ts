import { Kysely } from 'kysely';

// Frozen in time. Projects and languages by status, for the /metrics gauges (and operators'
// queries): an index-only count instead of reading every row.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('projects_status_idx').on('projects').column('status').execute();
  await db.schema.createIndex('project_languages_status_idx').on('project_languages').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('project_languages_status_idx').execute();
  await db.schema.dropIndex('projects_status_idx').execute();
}
