import { Kysely, sql } from 'kysely';

// Frozen in time. `projects.view_version` changes in the same transaction as anything the
// project's API representation shows: the project row, its languages, its upload and parts, its
// deliverables. Triggers do it, so no code path can forget. The API keeps a rendered copy per
// version and answers GET with one primary-key read when nothing changed.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('view_version', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();

  await sql`
    create function projects_bump_view_version() returns trigger language plpgsql as $$
    begin
      new.view_version := old.view_version + 1;
      return new;
    end $$`.execute(db);
  await sql`create trigger projects_view_version before update on projects for each row execute function projects_bump_view_version()`.execute(db);

  await sql`
    create function project_child_changed() returns trigger language plpgsql as $$
    declare
      target uuid;
    begin
      if tg_table_name = 'upload_parts' then
        select project_id into target from uploads where id = coalesce(new.upload_id, old.upload_id);
      else
        target := coalesce(new.project_id, old.project_id);
      end if;
      -- The projects trigger turns this no-op update into view_version + 1.
      update projects set view_version = view_version where id = target;
      return null;
    end $$`.execute(db);
  for (const table of ['project_languages', 'deliverables', 'uploads', 'upload_parts']) {
    await sql`create trigger ${sql.raw(`${table}_view_version`)} after insert or update or delete on ${sql.table(table)} for each row execute function project_child_changed()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['project_languages', 'deliverables', 'uploads', 'upload_parts']) {
    await sql`drop trigger if exists ${sql.raw(`${table}_view_version`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop trigger if exists projects_view_version on projects`.execute(db);
  await sql`drop function if exists project_child_changed()`.execute(db);
  await sql`drop function if exists projects_bump_view_version()`.execute(db);
  await db.schema.alterTable('projects').dropColumn('view_version').execute();
}
