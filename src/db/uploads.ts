import { sql, type ColumnType, type Insertable, type Selectable, type Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';
import { sourceKeys } from '../shared/source-keys';

/** What an upload brings: the project's source, or its music-and-effects track (docs/background.md#your-own-music-and-effects-track). */
export type UploadRole = 'source' | 'background_track';

export interface UploadTable {
  id: string;
  project_id: string;
  /** One of each per project (migration 0041); existing uploads are sources. */
  role: ColumnType<UploadRole, UploadRole | undefined, never>;
  file_name: string;
  size_bytes: number;
  part_size_bytes: number;
  part_count: number;
  expires_at: Date;
  /** The object store's multipart upload id (s3 driver); null where the API stores parts itself. */
  store_upload_id: string | null;
  completed_at: Date | null;
  completed_parts: ColumnType<CompletedPart[] | null, string | null, string | null>;
  created_at: ColumnType<Date, never, never>;
}

export interface UploadPartTable {
  upload_id: string;
  part_number: number;
  etag: string;
  size_bytes: number;
  /** The blob holding exactly these bytes; null for parts stored under blobKeys.part. */
  storage_key: string | null;
  uploaded_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CompletedPart {
  part_number: number;
  etag: string;
}

export type Upload = Selectable<UploadTable>;
export type UploadPart = Selectable<UploadPartTable>;

export const MAX_PARTS = 10_000;

/** How long an upload project waits for its parts before releasing its credit hold. */
export const UPLOAD_WINDOW_MS = 24 * 3600 * 1000;

/** The preferred part size, grown in 64 KiB steps when a file would otherwise need over 10,000 parts. */
export function partSizeFor(sizeBytes: number, preferred: number): number {
  const step = 64 * 1024;
  const needed = Math.ceil(sizeBytes / MAX_PARTS / step) * step;
  return Math.max(preferred, needed);
}

/** Size a given part must have: every part is part_size_bytes except a shorter last one. */
export function expectedPartSize(upload: Pick<Upload, 'size_bytes' | 'part_size_bytes' | 'part_count'>, partNumber: number): number {
  if (partNumber < upload.part_count) return upload.part_size_bytes;
  return upload.size_bytes - upload.part_size_bytes * (upload.part_count - 1);
}

export const blobKeys = {
  part: (uploadId: string, partNumber: number) => `uploads/${uploadId}/parts/${String(partNumber).padStart(5, '0')}`,
  /** A fresh key per PUT of a part, recorded in its row. */
  partAttempt: (uploadId: string, partNumber: number, attemptId: string) => `uploads/${uploadId}/parts/${String(partNumber).padStart(5, '0')}-${attemptId}`,
  storedPart: (part: Pick<UploadPart, 'upload_id' | 'part_number' | 'storage_key'>) => part.storage_key ?? blobKeys.part(part.upload_id, part.part_number),
  source: sourceKeys.media,
};

/** Where an upload's parts end up joined: the source, or the music-and-effects track. */
export const uploadTargetKey = (upload: Pick<Upload, 'project_id' | 'role'>) =>
  upload.role === 'background_track' ? sourceKeys.backgroundTrack(upload.project_id) : sourceKeys.media(upload.project_id);

export async function insertUpload(db: Db, upload: Insertable<UploadTable>): Promise<Upload> {
  return db.insertInto('uploads').values(upload).returningAll().executeTakeFirstOrThrow();
}

export async function findUpload(db: Db, uploadId: string): Promise<Upload | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
}

export async function findUploadByProject(db: Db, projectId: string, role: UploadRole = 'source'): Promise<Upload | undefined> {
  return db.selectFrom('uploads').selectAll().where('project_id', '=', projectId).where('role', '=', role).executeTakeFirst();
}

export async function listUploadParts(db: Db, uploadId: string): Promise<UploadPart[]> {
  return db.selectFrom('upload_parts').selectAll().where('upload_id', '=', uploadId).orderBy('part_number').execute();
}

/**
 * A re-sent part replaces the earlier one. Returns the blob key the row pointed at before, so
 * the caller can delete those bytes, by that exact key (BlobStore.delete, never a prefix: a
 * legacy key is a prefix of the new ones). Must run inside a transaction (the lock is per
 * transaction).
 */
export async function upsertUploadPart(db: Db, part: { upload_id: string; part_number: number; etag: string; size_bytes: number; storage_key: string }): Promise<string | null> {
  // Serializes writers of one part for this short transaction (a row lock cannot: the first
  // writers find no row to lock), so each learns exactly which blob it replaced.
  await sql`select pg_advisory_xact_lock(hashtext(${part.upload_id}), ${part.part_number})`.execute(db);
  const previous = await db
    .selectFrom('upload_parts')
    .select(['upload_id', 'part_number', 'storage_key'])
    .where('upload_id', '=', part.upload_id)
    .where('part_number', '=', part.part_number)
    .executeTakeFirst();
  await db
    .insertInto('upload_parts')
    .values(part)
    .onConflict((oc) => oc.columns(['upload_id', 'part_number']).doUpdateSet({ etag: part.etag, size_bytes: part.size_bytes, storage_key: part.storage_key, uploaded_at: new Date() }))
    .execute();
  return previous ? blobKeys.storedPart(previous) : null;
}

/**
 * Parts received per project, for the progress of many projects in one query. An upload that goes
 * straight to an object store (s3 driver) records its parts only at complete, so this database
 * cannot count them: `received` is null there rather than a guess (a single project's GET asks
 * the store).
 */
export async function uploadProgressByProject(db: Db, projectIds: string[]): Promise<Map<string, { received: number | null; total: number }>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('uploads')
    .leftJoin('upload_parts', 'upload_parts.upload_id', 'uploads.id')
    .select((eb) => ['uploads.project_id', 'uploads.part_count', 'uploads.store_upload_id', eb.fn.count<string>('upload_parts.part_number').as('received')])
    .where('uploads.project_id', 'in', projectIds)
    // The source's parts: a music-and-effects track's are counted in its own transfer block.
    .where('uploads.role', '=', 'source')
    .groupBy(['uploads.project_id', 'uploads.part_count', 'uploads.store_upload_id'])
    .execute();
  return new Map(rows.map((r) => [r.project_id, { received: r.store_upload_id === null ? Number(r.received) : null, total: r.part_count }]));
}

/**
 * Projects still awaiting an upload whose window has closed (by the database's clock), the
 * longest expired first: what the expiry schedule settles, `limit` per run.
 */
export async function listExpiredUploadProjects(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('uploads')
    .innerJoin('projects', 'projects.id', 'uploads.project_id')
    .select('uploads.project_id')
    .where('uploads.completed_at', 'is', null)
    .where('uploads.expires_at', '<', sql<Date>`now()`)
    // A project awaits its upload as long as its source is not completed; its track expires with it.
    .where('uploads.role', '=', 'source')
    .where('projects.status', '=', 'awaiting_upload')
    .orderBy('uploads.expires_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.project_id);
}

/**
 * The project's uploads (its source, and a music-and-effects track not completed either: they
 * share one window), locked for the caller's transaction, if the source is still incomplete and
 * its window has closed. A row another transaction holds (a complete in flight) is skipped, not
 * waited for: empty then, as for a completed upload.
 */
export async function lockExpiredUploads(trx: Transaction<Database>, projectId: string): Promise<Pick<Upload, 'id' | 'project_id' | 'role' | 'store_upload_id' | 'expires_at'>[]> {
  const locked = await trx
    .selectFrom('uploads')
    .select(['id', 'project_id', 'role', 'store_upload_id', 'expires_at'])
    .where('project_id', '=', projectId)
    .where('completed_at', 'is', null)
    .where('expires_at', '<', sql<Date>`now()`)
    .orderBy('role', 'desc') // 'source' first: the order every other path locks them in
    .forUpdate()
    .skipLocked()
    .execute();
  return locked.some((u) => u.role === 'source') ? locked : [];
}

/**
 * The upload row locked for its completion, with whether its window has closed by the
 * database's clock (the one the expiry schedule uses). Part uploads hold the same lock shared
 * (lockUploadShared), so the parts checked under it are the parts that stay.
 */
export async function lockUploadForCompletion(trx: Transaction<Database>, uploadId: string): Promise<Pick<Upload, 'id' | 'completed_at' | 'completed_parts'> & { expired: boolean }> {
  return trx
    .selectFrom('uploads')
    .select(['id', 'completed_at', 'completed_parts', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('id', '=', uploadId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Records the upload completed now, with the parts list it was completed with. */
export async function markUploadCompleted(trx: Transaction<Database>, uploadId: string, parts: CompletedPart[]): Promise<void> {
  await trx
    .updateTable('uploads')
    .set({ completed_at: sql<Date>`now()` as any, completed_parts: JSON.stringify(parts) })
    .where('id', '=', uploadId)
    .execute();
}

/** The upload's completion, read under a shared lock: a part stored meanwhile never lands after a completion. */
export async function lockUploadShared(trx: Transaction<Database>, uploadId: string): Promise<Pick<Upload, 'completed_at'> | undefined> {
  return trx.selectFrom('uploads').select('completed_at').where('id', '=', uploadId).forShare().executeTakeFirst();
}
