import { Kysely } from 'kysely';

// Frozen in time: each stored part names its own blob. Two concurrent re-sends of one part then
// cannot leave a row whose etag describes the other request's bytes: the row that wins points
// at exactly the bytes it was computed from. Null means the original per-part key.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_parts').addColumn('storage_key', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_parts').dropColumn('storage_key').execute();
}
