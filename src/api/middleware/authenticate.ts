import type { Context, Middleware } from 'koa';
import type { ApiKeyCache } from '../../auth/api-key-cache';
import { parseApiKey, secretMatches } from '../../auth/api-key-secret';
import { findApiKeyWithWorkspace, touchApiKey, type ApiKeyWithWorkspace } from '../../db/api-keys';
import type { Db } from '../../db/create-db';
import { REVIEWER_PERMISSION, type KeyKind, type Permission } from '../../shared/permissions';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';
import { stateReader } from '../request-state';
import type { AuthFailureLimiter } from '../rate-limit/auth-failure-limiter';
import { clientAddressKey } from '../rate-limit/client-address';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit';
import type { RateLimiter } from '../rate-limit/rate-limiter';

/** Who is calling; set on ctx.state.auth for every authenticated route. */
export interface AuthContext {
  keyId: string;
  keyKind: KeyKind;
  workspaceId: string;
  workspaceKind: 'personal' | 'team';
  /** The workspace's rate, carried here so paid writes need not read the workspace again. */
  creditsPerSecond: number;
  /** The user a personal key is bound to, or the owner of a personal workspace. */
  userId: string | null;
  permissions: ReadonlySet<Permission>;
}

/**
 * A reviewer calling (docs/editing.md#reviewers); set on ctx.state.reviewer instead of auth. A
 * reviewer key reaches the review routes alone: every workspace route refuses it (403).
 */
export interface ReviewerContext {
  keyId: string;
  /** The reviewer's name, recorded on the reviews they claim and submit. */
  name: string;
}

function presentedKey(authorization: string, headerKey: string): string {
  let bearer = '';
  if (authorization !== '') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw ApiError.unauthenticated('The Authorization header must be "Bearer <API key>".');
    bearer = match[1]!;
  }
  if (bearer && headerKey && bearer !== headerKey) {
    throw ApiError.unauthenticated('Authorization and x-api-key carry different keys; send one.');
  }
  const key = bearer || headerKey;
  if (!key) {
    throw ApiError.unauthenticated('No API key provided. Send "Authorization: Bearer <key>" or "x-api-key: <key>".');
  }
  return key;
}

const TOUCH_INTERVAL_MS = 60_000;

/** A workspace key's caller (its workspace columns are set: the join found the workspace). */
function toAuthContext(row: ApiKeyWithWorkspace): AuthContext {
  return {
    keyId: row.id,
    keyKind: row.kind as KeyKind,
    workspaceId: row.workspace_id!,
    workspaceKind: row.workspace_kind!,
    creditsPerSecond: row.workspace_credits_per_second!,
    userId: row.user_id ?? (row.workspace_kind === 'personal' ? row.workspace_owner_user_id : null),
    permissions: new Set(row.permissions.filter((p): p is Permission => p !== REVIEWER_PERMISSION)),
  };
}

export interface AuthDeps {
  db: Db;
  /** Optional: without it every request reads its key from the database. */
  keyCache?: ApiKeyCache;
  /** Optional: without it requests are not rate limited. */
  rateLimiter?: RateLimiter;
  /** Optional: without it failed authentications are not limited per client address. */
  authFailures?: AuthFailureLimiter;
}

function tooManyFailures(limiter: AuthFailureLimiter, retryAfter: number): ApiError {
  return new ApiError(
    429,
    ERROR_TYPES.rate_limit_error,
    'rate_limited',
    `Too many failed authentications from this address: the limit is ${limiter.limit} per ${limiter.windowSeconds} seconds. Retry after ${retryAfter} seconds.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * Accepts both header forms on every authenticated endpoint (docs/design.md#auth), then counts the request against the
 * key's rate limit when a limiter is given. Every 401 counts against the client's address; an
 * address past its limit gets 429 before any key is looked up, unless its key is one this
 * process has cached and it matches (docs/rate-limits.md).
 */
export function authenticate({ db, keyCache: cache, rateLimiter: limiter, authFailures }: AuthDeps): Middleware {
  // last_used_at changes at most once a minute anyway; remembering when this process last
  // wrote it saves a database round trip on almost every request.
  const lastTouched = new Map<string, number>();
  /** The caller's key row, its secret checked; throws the 401 (or, past the address's limit, 429). */
  const identify = async (authorization: string, headerKey: string, blockedFor: number): Promise<ApiKeyWithWorkspace> => {
    const key = presentedKey(authorization, headerKey);
    const parsed = parseApiKey(key);
    let row: ApiKeyWithWorkspace | undefined;
    if (parsed) {
      row = cache?.get(parsed.keyId);
      // An address past its limit reads nothing: only a key already cached here can pass.
      if (!row && blockedFor > 0) throw tooManyFailures(authFailures!, blockedFor);
      row ??= cache ? await cache.getOrLoad(parsed.keyId, () => findApiKeyWithWorkspace(db, parsed.keyId)) : await findApiKeyWithWorkspace(db, parsed.keyId);
    }
    if (!parsed || !row || !secretMatches(parsed.secret, row.secret_sha256)) throw ApiError.unauthenticated('Invalid API key provided.');
    if (row.revoked_at !== null) throw ApiError.unauthenticated('This API key has been revoked.');
    return row;
  };

  return async (ctx, next) => {
    const authorization = ctx.get('authorization').trim();
    const headerKey = ctx.get('x-api-key').trim();
    const address = authFailures ? clientAddressKey(ctx.ip) : '';
    const blockedFor = authFailures?.blockedFor(address) ?? 0;
    let row: ApiKeyWithWorkspace;
    try {
      row = await identify(authorization, headerKey, blockedFor);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        authFailures?.recordFailure(address);
        if (blockedFor > 0) throw tooManyFailures(authFailures!, blockedFor);
      }
      throw err;
    }
    // A key with no workspace is a reviewer's (docs/editing.md#reviewers).
    if (row.workspace_id === null) ctx.state.reviewer = { keyId: row.id, name: row.name } satisfies ReviewerContext;
    else ctx.state.auth = toAuthContext(row);
    const now = Date.now();
    if (now - (lastTouched.get(row.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      if (lastTouched.size > 10_000) lastTouched.clear();
      lastTouched.set(row.id, now);
      await touchApiKey(db, row.id);
    }
    if (limiter) await enforceRateLimit(ctx, limiter, row.id);
    await next();
  };
}

const REVIEWER_KEY_REFUSED = 'A reviewer key reaches only the review routes (/v1/reviews).';

/** The workspace key calling, if one is (a log line asks of any request). */
export const authOf = (ctx: Context): AuthContext | undefined => ctx.state.auth as AuthContext | undefined;

/** The workspace key calling; a reviewer key is refused (403), as no workspace route is theirs. */
export function workspaceCaller(ctx: Context): AuthContext {
  const auth = authOf(ctx);
  if (auth) return auth;
  if (ctx.state.reviewer) throw ApiError.permissionDenied(REVIEWER_KEY_REFUSED);
  throw new Error('a workspace route without authenticate');
}

export function requirePermission(permission: Permission): Middleware {
  return (ctx, next) => {
    const auth = workspaceCaller(ctx);
    if (!auth.permissions.has(permission)) {
      throw ApiError.permissionDenied(`This API key lacks the "${permission}" permission.`);
    }
    return next();
  };
}

/** The reviewer calling, on a route behind requireReviewer. */
export const reviewerCaller = stateReader<ReviewerContext>('reviewer', 'authenticate() and requireReviewer()');

/** The review routes' check: a reviewer key, and no workspace key, passes. */
export function requireReviewer(): Middleware {
  return (ctx, next) => {
    if (ctx.state.reviewer) return next();
    if (!ctx.state.auth) throw new Error('requireReviewer used without authenticate');
    throw ApiError.permissionDenied(`This API key lacks the "${REVIEWER_PERMISSION}" permission: only the service's reviewer keys hold it.`);
  };
}
