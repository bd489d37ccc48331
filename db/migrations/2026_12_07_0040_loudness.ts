import { Kysely, sql } from 'kysely';

// Frozen in time. Loudness to a delivery standard, and stems (docs/audio.md):
// - `projects.loudness`: the preset a project's dubbed mixes are levelled and normalized to,
//   chosen at create: `web` (-16 LUFS / -1 dBTP), `broadcast` (EBU R128), `atsc` (ATSC A/85) or
//   `none`. Projects that exist already take `none`, so their published revisions and their next
//   regenerations are mixed as they always were.
// - `project_languages.loudness_report`: the measured loudness of the published mix (preset,
//   integrated, range, true peak), written when a render publishes; null before.
// - `deliverables.type` gains `dialog_stem` and `background_stem`.

export async function up(db: Kysely<any>): Promise<void> {
  // A constant default fills every existing row with it (no table rewrite).
  await db.schema
    .alterTable('projects')
    .addColumn('loudness', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addCheckConstraint('projects_loudness_check', sql`loudness in ('web', 'broadcast', 'atsc', 'none')`)
    .execute();
  await db.schema.alterTable('project_languages').addColumn('loudness_report', 'jsonb').execute();
  await sql`alter table deliverables drop constraint deliverables_type_check`.execute(db);
  await db.schema
    .alterTable('deliverables')
    .addCheckConstraint('deliverables_type_check', sql`type in ('audio', 'dialog_stem', 'background_stem', 'subtitles', 'thumbnail', 'video')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('deliverables').where('type', 'in', ['dialog_stem', 'background_stem']).execute();
  await sql`alter table deliverables drop constraint deliverables_type_check`.execute(db);
  await db.schema
    .alterTable('deliverables')
    .addCheckConstraint('deliverables_type_check', sql`type in ('audio', 'subtitles', 'thumbnail', 'video')`)
    .execute();
  await db.schema.alterTable('project_languages').dropColumn('loudness_report').execute();
  await db.schema.alterTable('projects').dropColumn('loudness').execute();
}
