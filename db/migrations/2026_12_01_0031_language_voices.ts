import { Kysely } from 'kysely';

// Frozen in time. The voice each target language is spoken with (docs/voices.md), chosen at create
// or when the language is added, else the most natural one the workers offered then:
// - `projects.voices`: the voices chosen at create, by locale ({"ca_es": "festival:upc_ca_ona_hts"}),
//   held until the charge step writes the language rows, as `supplied_translations` is;
// - `project_languages.voice`: the language's voice, which every render of it (first dub,
//   re-dub, regeneration) speaks with. Rows from before this migration keep null: they go on
//   being spoken with the voice they were rendered with, the locale's voice as the worker
//   publishes it (espeak-ng's, or an external engine's), so a regeneration never mixes voices.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('voices', 'jsonb').execute();
  await db.schema.alterTable('project_languages').addColumn('voice', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('voice').execute();
  await db.schema.alterTable('projects').dropColumn('voices').execute();
}
