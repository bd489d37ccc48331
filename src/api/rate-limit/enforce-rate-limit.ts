import type { Context } from 'koa';
import type { RateLimitBucket } from '../../db/rate-limits';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';
import type { RateLimiter } from './rate-limiter';

/**
 * Counts the request against its key (reads are GET and HEAD; everything else changes something
 * and may spend credits) and sets the `RateLimit-*` headers (IETF draft "RateLimit header fields
 * for HTTP"); over the limit it answers 429 with `Retry-After`.
 */
export async function enforceRateLimit(ctx: Context, limiter: RateLimiter, apiKeyId: string): Promise<void> {
  const bucket: RateLimitBucket = ctx.method === 'GET' || ctx.method === 'HEAD' ? 'read' : 'write';
  const decision = await limiter.take(apiKeyId, bucket);
  if (!decision) return;
  ctx.set('RateLimit-Policy', `${decision.limit};w=${decision.windowSeconds}`);
  ctx.set('RateLimit-Limit', String(decision.limit));
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
  if (decision.allowed) return;
  const message = `Too many ${bucket}s with this API key: the limit is ${decision.limit} per ${decision.windowSeconds} seconds. Retry after ${decision.resetSeconds} seconds.`;
  throw new ApiError(429, ERROR_TYPES.rate_limit_error, 'rate_limited', message, undefined, { 'retry-after': String(decision.resetSeconds) });
}
