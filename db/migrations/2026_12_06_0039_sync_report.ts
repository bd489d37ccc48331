import { Kysely } from 'kysely';

// Frozen in time. `project_languages.sync_report`: the totals of the sync report of the published
// revision (lines sped up past 1.15×, the highest tempo, the largest shift, lines that ran into the
// next; docs/editing.md#sync-report), written when a render publishes, so the project view shows
// them without reading every line. Null until a render after this migration publishes.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').addColumn('sync_report', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('sync_report').execute();
}
