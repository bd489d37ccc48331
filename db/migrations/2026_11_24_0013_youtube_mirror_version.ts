import { Kysely, sql } from 'kysely';

// Frozen in time. `youtube_channels.mirror_version` changes in the same transaction as any write
// to the channel's mirrored videos. A trigger does it, so no write path can forget. The API keeps
// the pages of a title search per version and, while nothing changed, answers a repeated search
// with one key-lookup statement (the connection, the matching projects, this version) instead of
// searching the titles again.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('youtube_channels').addColumn('mirror_version', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
  await sql`
    create function youtube_videos_bump_mirror_version() returns trigger language plpgsql as $$
    begin
      update youtube_channels set mirror_version = mirror_version + 1
      where id in (new.channel_id, old.channel_id);
      return null;
    end $$`.execute(db);
  await sql`create trigger youtube_videos_mirror_version after insert or update or delete on youtube_videos for each row execute function youtube_videos_bump_mirror_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists youtube_videos_mirror_version on youtube_videos`.execute(db);
  await sql`drop function if exists youtube_videos_bump_mirror_version()`.execute(db);
  await db.schema.alterTable('youtube_channels').dropColumn('mirror_version').execute();
}
