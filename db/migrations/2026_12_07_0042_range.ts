import { Kysely, sql } from 'kysely';

// Frozen in time. A preview of a range (docs/previews.md): `projects.range_start_seconds` and
// `projects.range_end_seconds`, the stretch of the source a create asked to dub, in the whole
// source's seconds. Both null (every project before this migration, and any created without
// `range`) means the whole source. Fixed at create.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('range_start_seconds', 'double precision').addColumn('range_end_seconds', 'double precision').execute();
  await db.schema
    .alterTable('projects')
    .addCheckConstraint('projects_range_check', sql`(range_start_seconds is null and range_end_seconds is null) or (range_start_seconds >= 0 and range_end_seconds > range_start_seconds)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropConstraint('projects_range_check').execute();
  await db.schema.alterTable('projects').dropColumn('range_end_seconds').dropColumn('range_start_seconds').execute();
}
