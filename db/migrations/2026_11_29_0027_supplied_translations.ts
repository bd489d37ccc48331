import { Kysely, sql } from 'kysely';

// Frozen in time. Translations supplied at create (docs/editing.md#bring-your-own-script) arrive
// before the project has language rows: those are written when the project is charged, after
// validation. `projects.supplied_translations` holds them until then, as parsed cues keyed by
// locale ({"es_es": [{start_seconds, end_seconds, text}]}); the charge step hands each to its
// language row (`project_languages.supplied_translation`, migration 0026) and clears it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('supplied_translations', 'jsonb', (c) => c.check(sql`jsonb_typeof(supplied_translations) = 'object'`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('supplied_translations').execute();
}
