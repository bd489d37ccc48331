import { createHash, randomUUID } from 'node:crypto';
import type { Middleware, ParameterizedContext } from 'koa';
import { sql } from 'kysely';
import type { Db } from '../../db/create-db';
import { storeIdempotentResponse, type StoredResponse } from '../../db/idempotency';
import { ApiError } from '../api-error';
import type { AuthContext } from './authenticate';

// Idempotency-Key handling (docs/design.md#idempotency). The first request with a key takes a lock row; a
// retry with the same body gets the stored response byte for byte, a different body gets 422,
// and a retry while the first is still running gets 409. A request that crashed part-way leaves
// its recovery point, so the retry resumes where it stopped instead of paying twice.
//
// A lock can be taken over while its first holder still runs (it stalled past LOCK_TIMEOUT_MS).
// Each holder therefore gets a fencing token, and every write it makes to the row requires that
// token: the recovery point (written inside the work's own transaction, so a holder that lost
// the lock rolls its work back), the final response, and the cleanup on failure.

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** A lock older than this belongs to a request that died; a retry may take it over. */
const LOCK_TIMEOUT_MS = 60_000;

export interface IdempotencyState {
  key: string;
  recoveryPoint: string;
  recoveryData: Record<string, unknown> | null;
  /**
   * Whether this request holds the key. Always true with the default middleware; with
   * `{ claimInHandler: true }` the handler claims it, either inside its own first write (using
   * `newKeyRow`, then `noteClaimed`) or, when that finds the key taken, through `claim()`.
   */
  claimed: boolean;
  /** The key row to insert (ON CONFLICT DO NOTHING) when the handler claims in its own statement. */
  newKeyRow: { workspace_id: string; key: string; method: string; path: string; request_sha256: string; lock_token: string };
  /** The classic claim: true when this request now holds the key; false when it was answered with a replay. */
  claim(): Promise<boolean>;
  /**
   * The handler's own statement inserted `newKeyRow`, with this recovery point and, when given,
   * the response it stored with it: then nothing is written after the request unless it
   * answers something else.
   */
  noteClaimed(point: string, data: Record<string, unknown>, stored?: StoredResponse): void;
  /** After `claim()` answered with a replay: where the original request had got to. */
  replayed: { recoveryPoint: string; recoveryData: Record<string, unknown> | null } | null;
  /**
   * Records progress inside the caller's transaction, so it commits with the work it marks.
   * Throws (a 409) when a retry has taken the lock over: the caller's transaction must then roll
   * back, leaving the work to the retry, which owns the key now.
   */
  setRecoveryPoint(db: Db, point: string, data: Record<string, unknown>): Promise<void>;
  /**
   * For a caller that writes the recovery point inside its own statement (the fencing condition
   * is `lock_token = lock.token`): the lock to write under, and how to note what it wrote.
   */
  lock: { workspaceId: string; key: string; token: string };
  noteRecoveryPoint(point: string, data: Record<string, unknown> | null): void;
}

/** The 409 a request gets when a retry took its stalled lock over; nothing was done. */
export const lockTakenOver = () =>
  ApiError.conflict('idempotency_request_in_progress', 'This request stalled and a retry with the same Idempotency-Key took it over; nothing was done here. Retry to get the result.', { 'retry-after': '1' });

/** Canonical JSON: keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method}\n${path}\n${canonicalJson(body)}`).digest('hex');
}

/**
 * A response that must not be kept as it was sent (it holds a secret): `store` gives the bytes
 * to keep, `replay` turns kept bytes back into the answer for a retry (throwing an ApiError
 * when it can no longer be given). Stored responses live in the database as long as their key.
 */
export interface StoredResponseCodec {
  store(body: string): string;
  replay(ctx: ParameterizedContext, stored: StoredResponse): Promise<string>;
}

/**
 * @param required when it returns false for a request (e.g. a preview), the key is optional
 * and, if absent, the request runs without idempotency.
 * @param options.claimInHandler the handler claims the key itself (IdempotencyState.claimed),
 * so a create can claim it in the same statement as its work: one round trip and one commit fewer.
 * @param options.codec keeps something else than the response's bytes (not with claimInHandler).
 */
export function idempotency(db: Db, required: (ctx: ParameterizedContext) => boolean = () => true, options: { claimInHandler?: boolean; codec?: StoredResponseCodec } = {}): Middleware {
  return async (ctx, next) => {
    const key = ctx.get('idempotency-key');
    if (!key) {
      if (!required(ctx)) return next();
      throw new ApiError(400, 'invalid_request_error', 'idempotency_key_missing', 'This request needs an Idempotency-Key header; reuse the same key when you retry it.', 'Idempotency-Key');
    }
    if (!KEY_PATTERN.test(key)) {
      throw ApiError.invalid('invalid_parameter', 'Idempotency-Key must be 1-255 visible ASCII characters.', 'Idempotency-Key');
    }
    const auth = ctx.state.auth as AuthContext;
    const requestHash = fingerprint(ctx.method, ctx.path, ctx.state.body ?? {});
    let token: string = randomUUID();
    let replayed = false;
    let stored: StoredResponse | undefined;

    // Every write below touches the row only while this request still holds its lock.
    const ownRow = (trx: Db) => ({
      update: () => trx.updateTable('idempotency_keys').where('workspace_id', '=', auth.workspaceId).where('key', '=', key).where('lock_token', '=', token),
      delete: () => trx.deleteFrom('idempotency_keys').where('workspace_id', '=', auth.workspaceId).where('key', '=', key).where('lock_token', '=', token),
    });
    const state: IdempotencyState = {
      key,
      recoveryPoint: 'started',
      recoveryData: null,
      claimed: false,
      replayed: null,
      newKeyRow: { workspace_id: auth.workspaceId, key, method: ctx.method, path: ctx.path, request_sha256: requestHash, lock_token: token },
      async claim() {
        const claimed = await claim(db, auth.workspaceId, key, ctx.method, ctx.path, requestHash);
        if (claimed.kind === 'replay') {
          const body = options.codec ? await options.codec.replay(ctx, { status: claimed.status, body: claimed.body }) : claimed.body;
          replayed = true;
          ctx.status = claimed.status;
          ctx.type = 'application/json';
          ctx.set('idempotent-replayed', 'true');
          ctx.body = body;
          state.replayed = { recoveryPoint: claimed.recoveryPoint, recoveryData: claimed.recoveryData };
          return false;
        }
        token = claimed.token;
        state.lock.token = token;
        state.claimed = true;
        state.noteRecoveryPoint(claimed.recoveryPoint, claimed.recoveryData);
        return true;
      },
      noteClaimed(point, data, response) {
        state.claimed = true;
        stored = response;
        state.noteRecoveryPoint(point, data);
      },
      async setRecoveryPoint(trx, point, data) {
        const written = await ownRow(trx).update().set({ recovery_point: point, recovery_data: JSON.stringify(data) }).executeTakeFirst();
        if (written.numUpdatedRows === 0n) throw lockTakenOver();
        state.noteRecoveryPoint(point, data);
      },
      lock: { workspaceId: auth.workspaceId, key, token },
      noteRecoveryPoint(point, data) {
        state.recoveryPoint = point;
        state.recoveryData = data;
      },
    };
    ctx.state.idempotency = state;
    if (!options.claimInHandler && !(await state.claim())) return;

    try {
      await next();
    } catch (err) {
      if (state.claimed) {
        if (err instanceof ApiError && err.status < 500) {
          // Refused requests changed nothing; forget the key so a corrected retry can use it.
          await ownRow(db).delete().execute();
        } else {
          // Unexpected failure: keep the recovery point, release the lock so a retry resumes now.
          await ownRow(db).update().set({ locked_at: null, lock_token: null }).execute();
        }
      }
      throw err;
    }
    if (replayed) return;
    if (!state.claimed) throw new Error('idempotency: the handler answered without claiming its key');

    // Serialize once and store exactly these bytes, so a replay is identical.
    const text = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
    ctx.type = 'application/json';
    ctx.body = text;
    if (stored && stored.status === ctx.status && stored.body === text) return; // stored with the key by the handler's own statement
    // No row updated: a retry took the lock over after this request's work had committed. The
    // retry resumes from the committed recovery point and stores the response; this one is
    // still a true answer for the caller.
    await storeIdempotentResponse(db, { workspaceId: auth.workspaceId, key, token }, ctx.status, options.codec ? options.codec.store(text) : text);
  };
}

type Claim =
  | { kind: 'owner'; token: string; recoveryPoint: string; recoveryData: Record<string, unknown> | null }
  | { kind: 'replay'; status: number; body: string; recoveryPoint: string; recoveryData: Record<string, unknown> | null };

async function claim(db: Db, workspaceId: string, key: string, method: string, path: string, requestHash: string): Promise<Claim> {
  const token = randomUUID();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ workspace_id: workspaceId, key, method, path, request_sha256: requestHash, locked_at: new Date(), lock_token: token })
    .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { kind: 'owner', token, recoveryPoint: 'started', recoveryData: null };

  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirst();
    if (!row) {
      // The holder forgot it between our insert and select (its request was refused): retry.
      throw ApiError.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key just finished; retry.', { 'retry-after': '1' });
    }
    if (row.method !== method || row.path !== path || row.request_sha256 !== requestHash) {
      throw new ApiError(422, 'invalid_request_error', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.', 'Idempotency-Key');
    }
    if (row.response_status !== null && row.response_body !== null) {
      // A stored response answers every retry, whatever the lock says: a create stores its
      // response in the statement that claims the key, before its lock is ever released.
      return { kind: 'replay', status: row.response_status, body: row.response_body, recoveryPoint: row.recovery_point, recoveryData: row.recovery_data };
    }
    if (row.locked_at !== null && Date.now() - row.locked_at.getTime() < LOCK_TIMEOUT_MS) {
      throw ApiError.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress; retry shortly.', { 'retry-after': '1' });
    }
    // A new token fences off the previous holder, should it still be running.
    await trx.updateTable('idempotency_keys').set({ locked_at: sql<Date>`now()` as any, lock_token: token }).where('workspace_id', '=', workspaceId).where('key', '=', key).execute();
    return { kind: 'owner', token, recoveryPoint: row.recovery_point, recoveryData: row.recovery_data };
  });
}
