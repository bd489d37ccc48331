import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Client } from 'pg';
import type { AnyKeyKind, RoutePermission } from '../shared/permissions';
import type { Db } from './create-db';

export interface ApiKeyTable {
  id: string;
  /** Null exactly for reviewer keys: the service's staff, not a customer (migration 0028). */
  workspace_id: string | null;
  user_id: string | null;
  kind: AnyKeyKind;
  name: string;
  secret_sha256: Buffer;
  permissions: RoutePermission[];
  created_at: ColumnType<Date, never, never>;
  last_used_at: ColumnType<Date | null, never, Date>;
  revoked_at: ColumnType<Date | null, never, Date>;
}

export type ApiKeyRow = Selectable<ApiKeyTable>;

/**
 * Revocations are announced on this channel, in the transaction that revokes, and new keys in
 * the one that inserts (the payload is the key id): the API processes' key caches listen.
 */
export const API_KEY_CHANNEL = 'api_key_changes';

/** From now on, `client` emits a 'notification' for every key change (and marker) on the channel. */
export async function listenForKeyChanges(client: Client): Promise<void> {
  await client.query(`LISTEN ${API_KEY_CHANNEL}`);
}

/** Sends `marker` down the channel: when it arrives, every change committed before it has too. */
export async function sendKeyChannelMarker(client: Client, marker: string): Promise<void> {
  await client.query('select pg_notify($1, $2)', [API_KEY_CHANNEL, marker]);
}

/** The key with what authorization needs to know about its workspace (all null for a reviewer key). */
export interface ApiKeyWithWorkspace extends ApiKeyRow {
  workspace_kind: 'personal' | 'team' | null;
  workspace_owner_user_id: string | null;
  workspace_credits_per_second: number | null;
}

export async function insertApiKey(db: Db, key: Omit<ApiKeyRow, 'created_at' | 'last_used_at' | 'revoked_at'>): Promise<ApiKeyRow> {
  const row = await db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
  // A cache that remembered this id as missing (a client tried it before it existed) forgets that.
  await sql`select pg_notify(${API_KEY_CHANNEL}, ${key.id})`.execute(db);
  return row;
}

export async function findApiKeyWithWorkspace(db: Db, keyId: string): Promise<ApiKeyWithWorkspace | undefined> {
  return db
    .selectFrom('api_keys')
    .leftJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .selectAll('api_keys')
    .select(['workspaces.kind as workspace_kind', 'workspaces.owner_user_id as workspace_owner_user_id', 'workspaces.credits_per_second as workspace_credits_per_second'])
    .where('api_keys.id', '=', keyId)
    .executeTakeFirst();
}

export async function listApiKeys(db: Db, workspaceId?: string): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_keys').selectAll().orderBy('created_at');
  if (workspaceId) query = query.where('workspace_id', '=', workspaceId);
  return query.execute();
}

/**
 * Returns false when the key does not exist or was already revoked. Notifies the API processes'
 * key caches; run it in a transaction so the notice is sent exactly when the revocation commits.
 */
export async function revokeApiKey(db: Db, keyId: string): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await sql`select pg_notify(${API_KEY_CHANNEL}, ${keyId})`.execute(db);
  return true;
}

/**
 * Records use at most once a minute per key, so a busy key does not turn every read into a
 * write on the same row.
 */
export async function touchApiKey(db: Db, keyId: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: new Date() })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(Date.now() - 60_000))]))
    .execute();
}
