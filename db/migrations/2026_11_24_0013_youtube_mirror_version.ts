import { Kysely, sql } from 'kysely';

// Frozen in time. `youtube_channels.mirror_version` changes in the same transaction as any write
// to the channel's mirrored videos. Triggers do it, so no write path can forget. The API keeps
// the pages of a title search per version and, while nothing changed, answers a repeated search
// with one key-lookup statement (the connection, the matching projects, this version) instead of
// searching the titles again.
// Statement-level with transition tables: one update per channel per statement, however many
// videos it wrote (a row-level trigger made seeding 100,000 videos in one statement take minutes).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('youtube_channels')
    .addColumn('mirror_version', 'bigint', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`
    create function youtube_videos_bump_mirror_version() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update youtube_channels set mirror_version = mirror_version + 1 where id in (select channel_id from new_videos);
      elsif tg_op = 'UPDATE' then
        update youtube_channels set mirror_version = mirror_version + 1
        where id in (select channel_id from new_videos union select channel_id from old_videos);
      else
        update youtube_channels set mirror_version = mirror_version + 1 where id in (select channel_id from old_videos);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger youtube_videos_mirror_version_insert after insert on youtube_videos
    referencing new table as new_videos for each statement execute function youtube_videos_bump_mirror_version()`.execute(db);
  await sql`create trigger youtube_videos_mirror_version_update after update on youtube_videos
    referencing old table as old_videos new table as new_videos for each statement execute function youtube_videos_bump_mirror_version()`.execute(db);
  await sql`create trigger youtube_videos_mirror_version_delete after delete on youtube_videos
    referencing old table as old_videos for each statement execute function youtube_videos_bump_mirror_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const op of ['insert', 'update', 'delete']) {
    await sql`drop trigger if exists ${sql.raw(`youtube_videos_mirror_version_${op}`)} on youtube_videos`.execute(db);
  }
  await sql`drop function if exists youtube_videos_bump_mirror_version()`.execute(db);
  await db.schema.alterTable('youtube_channels').dropColumn('mirror_version').execute();
}
