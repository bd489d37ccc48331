import { Kysely } from 'kysely';

// Frozen in time. `project_languages.dub_quality`: how well the published dub follows its source
// (largest start offset, highest tempo, drift, length ratio, cues outside their clips), written
// with the deliverables. Operators and the pipeline benchmark read it; null until dubbed.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').addColumn('dub_quality', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('dub_quality').execute();
}
