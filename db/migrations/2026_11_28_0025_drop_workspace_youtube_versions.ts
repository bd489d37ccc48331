import { Kysely, sql } from 'kysely';

// Frozen in time. The video search reads a workspace's matching projects straight from
// `projects` on every request (docs/design.md#youtube), so the per-workspace version that let an
// API process trust its remembered matches (migration 0020) has no reader left: its table,
// sequence and the three triggers that bumped it on every YouTube project write go.

export async function up(db: Kysely<any>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`projects_youtube_version_${op}`)} on projects`.execute(db);
  }
  await sql`drop function if exists projects_bump_youtube_version()`.execute(db);
  await db.schema.dropTable('workspace_youtube_versions').ifExists().execute();
  await sql`drop sequence if exists workspace_youtube_version_seq`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // As migration 0020 made them, with every existing YouTube project's workspace given a version.
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
      if tg_op = 'DELETE' then
        if old.youtube_video_id is not null then
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
