import { Kysely, sql } from 'kysely';

// Frozen in time. The dubbed video (docs/video.md): a completed language may publish a `video`
// deliverable (MP4), and each language records whether its captions are burned into the
// picture. The choice made at create is held on the project until the charge step gives it to
// the target languages' rows; languages added later carry the choice of their own request.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table deliverables drop constraint deliverables_type_check`.execute(db);
  await db.schema
    .alterTable('deliverables')
    .addCheckConstraint('deliverables_type_check', sql`type in ('audio', 'subtitles', 'thumbnail', 'video')`)
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('video_burned_captions', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('project_languages')
    .addColumn('video_burned_captions', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('video_burned_captions').execute();
  await db.schema.alterTable('projects').dropColumn('video_burned_captions').execute();
  await db.deleteFrom('deliverables').where('type', '=', 'video').execute();
  await sql`alter table deliverables drop constraint deliverables_type_check`.execute(db);
  await db.schema
    .alterTable('deliverables')
    .addCheckConstraint('deliverables_type_check', sql`type in ('audio', 'subtitles', 'thumbnail')`)
    .execute();
}
