import { Kysely, sql } from 'kysely';

// Frozen in time. What a project's dub is mixed over (docs/background.md): `duck`, `keep` or
// `drop`. Projects that exist already were all mixed the one way there was, the whole original at
// a fixed low level: they are `keep`, so a regeneration of one renders (and splices) exactly as
// its published revision did. New projects default to `duck`.

export async function up(db: Kysely<any>): Promise<void> {
  // Adding the column with a constant default fills every existing row with it (no table rewrite).
  await db.schema
    .alterTable('projects')
    .addColumn('background', 'text', (c) => c.notNull().defaultTo('keep'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addCheckConstraint('projects_background_check', sql`background in ('duck', 'keep', 'drop')`)
    .execute();
  await db.schema
    .alterTable('projects')
    .alterColumn('background', (c) => c.setDefault('duck'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('background').execute();
}
