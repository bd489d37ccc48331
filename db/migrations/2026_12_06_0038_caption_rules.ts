import { Kysely, sql } from 'kysely';

// Frozen in time. Captions that pass timed-text QC (docs/captions.md):
// - `projects.caption_rules`: the timed-text preset a project's captions are cut, timed and
//   checked to, chosen at create: `standard` (after the Netflix English template), `fast` or
//   `children`. Projects that exist already take `standard`.
// - `project_languages.caption_breaches`: how many rules the published captions break, counted
//   when a render publishes them (the project view shows it without reading the files). Null for
//   captions published before QC existed.

export async function up(db: Kysely<any>): Promise<void> {
  // A constant default fills every existing row with it (no table rewrite).
  await db.schema
    .alterTable('projects')
    .addColumn('caption_rules', 'text', (c) => c.notNull().defaultTo('standard'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addCheckConstraint('projects_caption_rules_check', sql`caption_rules in ('standard', 'fast', 'children')`)
    .execute();
  await db.schema
    .alterTable('project_languages')
    .addColumn('caption_breaches', 'integer', (c) => c.check(sql`caption_breaches >= 0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_languages').dropColumn('caption_breaches').execute();
  await db.schema.alterTable('projects').dropColumn('caption_rules').execute();
}
