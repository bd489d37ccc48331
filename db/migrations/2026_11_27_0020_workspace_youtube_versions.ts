import { Kysely, sql } from 'kysely';

// Frozen in time. `workspace_youtube_versions.version` changes in the same transaction as any
// write that can change a workspace's matching projects (docs/design.md#youtube): a YouTube project inserted
// or deleted, or its video, status, usage state or target locales updated. Triggers do it, so no
// write path can forget. The API keeps a repeated search's matching projects per version and,
// while nothing changed, reads this version instead of probing the projects for every video of
// the page.
// Values come from a sequence, never `+ 1`: a version is only ever compared for equality, and
// one never seen before can never be mistaken for a remembered one.
// Row-level with a WHEN clause: PostgreSQL tests it without entering the function, so the many
// updates that touch no match (a phase, a view_version, an upload project) cost nothing. A
// workspace without a row has never had a YouTube project: its version reads as 0.
// Lock order: the row is taken by a project write, which every money transaction makes last (the
// project row, then credit_balances, then the project update; a create reserves before it
// inserts), so two transactions of one workspace never wait on each other's rows in a cycle.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence workspace_youtube_version_seq`.execute(db);
  await db.schema
    .createTable('workspace_youtube_versions')
    .addColumn('workspace_id', 'uuid', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    insert into workspace_youtube_versions (workspace_id, version)
    select workspace_id, nextval('workspace_youtube_version_seq')
    from (select distinct workspace_id from projects where youtube_video_id is not null) w`.execute(db);

  await sql`
    create function projects_bump_youtube_version() returns trigger language plpgsql as $$
    begin
      -- The old row's workspace, unless the new row bumps that same workspace below. Branches,
      -- not one condition: OLD is null on INSERT and NEW on DELETE.
      if tg_op = 'DELETE' then
        if old.youtube_video_id is not null then
          -- The project's insert (or the backfill) made its workspace's row.
          update workspace_youtube_versions set version = nextval('workspace_youtube_version_seq') where workspace_id = old.workspace_id;
        end if;
      elsif tg_op = 'UPDATE' then
        if old.youtube_video_id is not null and (new.youtube_video_id is null or new.workspace_id is distinct from old.workspace_id) then
          update workspace_youtube_versions set version = nextval('workspace_youtube_version_seq') where workspace_id = old.workspace_id;
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        if new.youtube_video_id is not null then
          insert into workspace_youtube_versions (workspace_id, version) values (new.workspace_id, nextval('workspace_youtube_version_seq'))
          on conflict (workspace_id) do update set version = excluded.version;
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger projects_youtube_version_insert after insert on projects for each row
    when (new.youtube_video_id is not null) execute function projects_bump_youtube_version()`.execute(db);
  await sql`create trigger projects_youtube_version_update after update on projects for each row
    when ((old.youtube_video_id is not null or new.youtube_video_id is not null) and (
      old.youtube_video_id is distinct from new.youtube_video_id or old.workspace_id is distinct from new.workspace_id
      or old.status is distinct from new.status or old.usage_state is distinct from new.usage_state
      or old.target_locales is distinct from new.target_locales))
    execute function projects_bump_youtube_version()`.execute(db);
  await sql`create trigger projects_youtube_version_delete after delete on projects for each row
    when (old.youtube_video_id is not null) execute function projects_bump_youtube_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`projects_youtube_version_${op}`)} on projects`.execute(db);
  }
  await sql`drop function if exists projects_bump_youtube_version()`.execute(db);
  await db.schema.dropTable('workspace_youtube_versions').execute();
  await sql`drop sequence if exists workspace_youtube_version_seq`.execute(db);
}
