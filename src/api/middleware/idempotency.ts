import { createHash, randomUUID } from 'node:crypto';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Db } from '../../db/create-db';
import { forgetKey, insertKey, lockKeyRow, releaseKey, setRecoveryPoint, storeIdempotentResponse, takeOverKey, type KeyLock, type StoredResponse } from '../../db/idempotency';
import { ApiError } from '../api-error';
import { stateReader } from '../request-state';
import { workspaceCaller } from './authenticate';

// Idempotency-Key handling (docs/design.md#idempotency): replay, 422 for another request, 409
// while the first runs, recovery points, and a stalled lock taken over under a fencing token
// that every write of its holder to the key row requires.

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** A lock older than this belongs to a request that died; a retry may take it over. */
const LOCK_TIMEOUT_MS = 60_000;

/** What the handler behind the middleware reads (idempotencyOf): where an earlier attempt got to, and how to record progress. */
export interface IdempotencyState {
  key: string;
  recoveryPoint: string;
  recoveryData: Record<string, unknown> | null;
  /** Records progress in the caller's transaction; a 409 when a retry took the lock over (roll back then). */
  setRecoveryPoint(db: Db, point: string, data: Record<string, unknown>): Promise<void>;
  /** The answer changed nothing (over the limit, nothing to do): forget the key, as for a refusal (docs/design.md#idempotency). */
  answerUnrecorded(): void;
}

export const idempotencyOf = stateReader<IdempotencyState>('idempotency', 'idempotency()');

const inProgress = (message: string) => ApiError.conflict('idempotency_request_in_progress', message, { 'retry-after': '1' });

/** Canonical JSON: keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A response that must not be kept as it was sent (it holds a secret): `store` gives the bytes
 * to keep, `replay` turns kept bytes back into the answer for a retry (throwing an ApiError
 * when it can no longer be given).
 */
export interface StoredResponseCodec {
  store(body: string): string;
  replay(ctx: ParameterizedContext, stored: StoredResponse): Promise<string>;
}

/**
 * @param required when it returns false for a request (e.g. a preview), the key is optional
 * and, if absent, the request runs without idempotency.
 */
export function idempotency(db: Db, required: (ctx: ParameterizedContext) => boolean = () => true, options: { codec?: StoredResponseCodec } = {}): Middleware {
  return async (ctx, next) => {
    const key = ctx.get('idempotency-key');
    if (!key) {
      if (!required(ctx)) return next();
      throw new ApiError(400, 'invalid_request_error', 'idempotency_key_missing', 'This request needs an Idempotency-Key header; reuse the same key when you retry it.', 'Idempotency-Key');
    }
    if (!KEY_PATTERN.test(key)) throw ApiError.invalid('invalid_parameter', 'Idempotency-Key must be 1-255 visible ASCII characters.', 'Idempotency-Key');
    const lock: KeyLock = { workspaceId: workspaceCaller(ctx).workspaceId, key, token: randomUUID() };
    const requestSha256 = createHash('sha256')
      .update(`${ctx.method}\n${ctx.path}\n${canonicalJson(ctx.state.body ?? {})}`)
      .digest('hex');
    const claimed = await claim(db, lock, { method: ctx.method, path: ctx.path, requestSha256 });
    if ('replay' in claimed) {
      const body = options.codec ? await options.codec.replay(ctx, claimed.replay) : claimed.replay.body;
      ctx.status = claimed.replay.status;
      ctx.type = 'application/json';
      ctx.set('idempotent-replayed', 'true');
      ctx.body = body;
      return;
    }

    let unrecorded = false;
    const state: IdempotencyState = {
      key,
      recoveryPoint: claimed.recoveryPoint,
      recoveryData: claimed.recoveryData,
      async setRecoveryPoint(trx, point, data) {
        if (!(await setRecoveryPoint(trx, lock, point, data))) {
          throw inProgress('This request stalled and a retry with the same Idempotency-Key took it over; nothing was done here. Retry to get the result.');
        }
        state.recoveryPoint = point;
        state.recoveryData = data;
      },
      answerUnrecorded() {
        if (state.recoveryPoint !== 'started') throw new Error(`an answer after recovery point ${state.recoveryPoint} must be kept`);
        unrecorded = true;
      },
    };
    ctx.state.idempotency = state;
    try {
      await next();
    } catch (err) {
      // Refused requests changed nothing; forget the key so a corrected retry can use it. An
      // unexpected failure keeps its recovery point and releases the lock, so a retry resumes now.
      await (err instanceof ApiError && err.status < 500 ? forgetKey(db, lock) : releaseKey(db, lock));
      throw err;
    }
    // An answer that changed nothing is not kept: the key is free again.
    if (unrecorded) return forgetKey(db, lock);

    // Serialize once and store exactly these bytes, so a replay is identical. No row updated: a
    // retry took the lock over after this request's work had committed; the retry resumes from
    // the committed recovery point and stores its own answer, and this one is still true.
    const text = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
    ctx.type = 'application/json';
    ctx.body = text;
    await storeIdempotentResponse(db, lock, { status: ctx.status, body: options.codec ? options.codec.store(text) : text });
  };
}

type Claim = { recoveryPoint: string; recoveryData: Record<string, unknown> | null } | { replay: StoredResponse };

async function claim(db: Db, lock: KeyLock, request: { method: string; path: string; requestSha256: string }): Promise<Claim> {
  if (await insertKey(db, lock, request)) return { recoveryPoint: 'started', recoveryData: null };
  return db.transaction().execute(async (trx) => {
    const row = await lockKeyRow(trx, lock.workspaceId, lock.key);
    // The holder forgot it between our insert and select (its request was refused): retry.
    if (!row) throw inProgress('A request with this Idempotency-Key just finished; retry.');
    if (row.method !== request.method || row.path !== request.path || row.request_sha256 !== request.requestSha256) {
      throw new ApiError(422, 'invalid_request_error', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.', 'Idempotency-Key');
    }
    if (row.response_status !== null && row.response_body !== null) return { replay: { status: row.response_status, body: row.response_body } };
    if (row.locked_at !== null && Date.now() - row.locked_at.getTime() < LOCK_TIMEOUT_MS) {
      throw inProgress('A request with this Idempotency-Key is still in progress; retry shortly.');
    }
    await takeOverKey(trx, lock);
    return { recoveryPoint: row.recovery_point, recoveryData: row.recovery_data };
  });
}
