import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Db } from './create-db';

export interface IdempotencyKeyTable {
  workspace_id: string;
  key: string;
  method: string;
  path: string;
  request_sha256: string;
  recovery_point: ColumnType<string, string | undefined, string>;
  recovery_data: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  locked_at: Date | null;
  /** Whose lock it is: fresh per claim or takeover; the owner's writes require it. */
  lock_token: ColumnType<string | null, string | null | undefined, string | null>;
  response_status: number | null;
  response_body: string | null;
  created_at: ColumnType<Date, never, never>;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;

/** What every retry of a request answers, byte for byte. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** A key as one request holds it: every write below requires its token (docs/design.md#idempotency). */
export interface KeyLock {
  workspaceId: string;
  key: string;
  token: string;
}

/** Takes a key never seen before, locked by `lock.token`; false when the key exists. */
export async function insertKey(db: Db, lock: KeyLock, request: { method: string; path: string; requestSha256: string }): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ workspace_id: lock.workspaceId, key: lock.key, method: request.method, path: request.path, request_sha256: request.requestSha256, locked_at: new Date(), lock_token: lock.token })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The key's row, locked until the caller's transaction ends. */
export async function lockKeyRow(trx: Db, workspaceId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  return trx.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', workspaceId).where('key', '=', key).forUpdate().executeTakeFirst();
}

/** Gives the key to `lock.token`: the previous holder, should it still run, is fenced off. */
export async function takeOverKey(trx: Db, lock: KeyLock): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ locked_at: sql<Date>`now()`, lock_token: lock.token })
    .where('workspace_id', '=', lock.workspaceId)
    .where('key', '=', lock.key)
    .execute();
}

const ownRow = (db: Db, lock: KeyLock) => db.updateTable('idempotency_keys').where('workspace_id', '=', lock.workspaceId).where('key', '=', lock.key).where('lock_token', '=', lock.token);

/** Records progress in the caller's transaction; false when the lock was taken over. */
export async function setRecoveryPoint(trx: Db, lock: KeyLock, point: string, data: Record<string, unknown>): Promise<boolean> {
  const written = await ownRow(trx, lock)
    .set({ recovery_point: point, recovery_data: JSON.stringify(data) })
    .executeTakeFirst();
  return written.numUpdatedRows > 0n;
}

/** A refused request changed nothing: the key goes, so a corrected retry may use it. */
export async function forgetKey(db: Db, lock: KeyLock): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('workspace_id', '=', lock.workspaceId).where('key', '=', lock.key).where('lock_token', '=', lock.token).execute();
}

/** A request that failed unexpectedly: its recovery point stays, its lock goes, so a retry resumes now. */
export async function releaseKey(db: Db, lock: KeyLock): Promise<void> {
  await ownRow(db, lock).set({ locked_at: null, lock_token: null }).execute();
}

/**
 * Stores a request's final response under its key, only while `lock.token` still holds it (a
 * retry that took it over stores its own).
 */
export async function storeIdempotentResponse(db: Db, lock: KeyLock, response: StoredResponse): Promise<void> {
  await ownRow(db, lock).set({ response_status: response.status, response_body: response.body, locked_at: null, lock_token: null, recovery_point: 'finished' }).execute();
}
