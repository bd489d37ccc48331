import { Kysely, sql } from 'kysely';

// Frozen in time. The customer's own music-and-effects track (docs/background.md#your-own-music-and-effects-track):
// a second upload of an upload-source project, told apart from the source by `uploads.role`, one
// of each per project; and its file name and size on the project, for the view. Existing uploads
// are all sources.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('source'))
    .execute();
  await db.schema
    .alterTable('uploads')
    .addCheckConstraint('uploads_role_check', sql`role in ('source', 'background_track')`)
    .execute();
  await db.schema.alterTable('uploads').dropConstraint('uploads_project_id_key').execute();
  await db.schema.alterTable('uploads').addUniqueConstraint('uploads_project_id_role_key', ['project_id', 'role']).execute();
  await db.schema.alterTable('projects').addColumn('background_track_file_name', 'text').addColumn('background_track_size_bytes', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('background_track_file_name').dropColumn('background_track_size_bytes').execute();
  await sql`delete from upload_parts where upload_id in (select id from uploads where role <> 'source')`.execute(db);
  await sql`delete from uploads where role <> 'source'`.execute(db);
  await db.schema.alterTable('uploads').dropConstraint('uploads_project_id_role_key').execute();
  await db.schema.alterTable('uploads').addUniqueConstraint('uploads_project_id_key', ['project_id']).execute();
  await db.schema.alterTable('uploads').dropColumn('role').execute();
}
