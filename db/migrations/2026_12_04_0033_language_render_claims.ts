import { Kysely, sql } from 'kysely';

// Frozen in time. Renders of a language claim their revision as they start (docs/editing.md#revisions):
// - `project_languages.claimed_revision`: the highest revision any render of the language has
//   claimed; the next render (a re-dub, a regeneration) takes one more, under the row's lock, so
//   no two renders, not even a failed one still uploading, write under the same `rN/` prefix.
//   Rows from before take their published revision;
// - `project_languages.redub_revision`: the revision the free re-dub from a verified transcript
//   is rendering, null when none runs. While it is set the language's lines and the source
//   transcript cannot be edited and the language cannot be regenerated (409).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('project_languages')
    .addColumn('claimed_revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('redub_revision', 'integer')
    .execute();
  await sql`update project_languages set claimed_revision = revision where claimed_revision <> revision`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('claimed_revision').dropColumn('redub_revision').execute();
}
