import { Kysely, sql } from 'kysely';

// Frozen in time. Glossaries (docs/glossaries.md): a workspace's terms, versioned, which a
// project pins.
// - `glossaries`: one row per glossary, `gls_…` ids, `version` its latest version, `seq` the
//   list order and cursor position (as for projects and webhook endpoints). Soft delete
//   (`deleted_at`): projects that pinned a version keep it, so the versions stay.
// - `glossary_versions`: every version as it was made (name and entries), never updated: a
//   trigger refuses any UPDATE, so a pinned version cannot change under a project.
// - `projects.glossary_id` + `glossary_version`: the version a project pins, both or neither.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('glossaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source_locale', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`version >= 1`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('glossaries_workspace_seq_idx').on('glossaries').columns(['workspace_id', 'seq desc']).where(sql.ref('deleted_at'), 'is', null).execute();

  await db.schema
    .createTable('glossary_versions')
    .addColumn('glossary_id', 'text', (c) => c.notNull().references('glossaries.id'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('name', 'text', (c) => c.notNull())
    // GlossaryEntry[] (src/shared/glossary-entry.ts), as the API accepted and normalized them.
    .addColumn('entries', 'jsonb', (c) => c.notNull().check(sql`jsonb_typeof(entries) = 'array'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('glossary_versions_pkey', ['glossary_id', 'version'])
    .execute();
  await sql`
    create function glossary_versions_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'glossary versions are immutable (docs/glossaries.md#versions)';
    end $$`.execute(db);
  await sql`create trigger glossary_versions_immutable before update on glossary_versions for each row execute function glossary_versions_immutable()`.execute(db);

  await sql`
    alter table projects
      add column glossary_id text references glossaries (id),
      add column glossary_version integer,
      add constraint projects_glossary_pin check ((glossary_id is null) = (glossary_version is null)),
      add constraint projects_glossary_version_fkey foreign key (glossary_id, glossary_version) references glossary_versions (glossary_id, version)`.execute(db);
  // "Which live projects pin this glossary": a delete's answer and the version reads of a deleted glossary.
  await sql`create index projects_glossary on projects (glossary_id) where glossary_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists projects_glossary`.execute(db);
  await sql`alter table projects drop column glossary_version, drop column glossary_id`.execute(db);
  await db.schema.dropTable('glossary_versions').execute();
  await sql`drop function if exists glossary_versions_immutable()`.execute(db);
  await db.schema.dropTable('glossaries').execute();
}
