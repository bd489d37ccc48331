// When a call is worth repeating and how long to wait first. Repeating is safe for every call
// the client makes: GETs read, each POST carries one Idempotency-Key for all its attempts (or,
// like upload/complete, is documented safe to repeat), and a part PUT rewrites the same bytes.

export interface RetryOptions {
  /** Attempts in all, the first included. Default 5; 1 turns retries off. */
  maxAttempts?: number;
  /** The first backoff; each later one doubles. Default 500 ms. */
  baseDelayMs?: number;
  /** No single wait is longer, whatever Retry-After asks. Default 30 s. */
  maxDelayMs?: number;
  /** Waits; replaced in tests so no test sleeps. */
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ x < 1; replaced in tests to pin the jitter. */
  random?: () => number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    maxAttempts: Math.max(1, options.maxAttempts ?? 5),
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
  };
}

/**
 * 429 and 5xx are retried. Of the 409s only one is: the same Idempotency-Key still in progress
 * (src/api/middleware/idempotency.ts), which the first request will answer soon; every other
 * 409 is a state conflict (`upload_already_completed`, `language_not_completed`, ...) that a
 * repeat cannot change.
 */
export function isRetryableStatus(status: number, errorCode: string | undefined): boolean {
  if (status === 429 || status >= 500) return true;
  return status === 409 && errorCode === 'idempotency_request_in_progress';
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day and month; anything else (e.g. "-3") is not one.
  if (!/[A-Za-z]{3}/.test(value)) return null;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter (a random wait up to the doubled delay), so clients that
 * failed together do not retry together; the server's Retry-After, when given, is the least
 * wait. `attempt` is the number of the attempt that just failed, from 1.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | null, options: ResolvedRetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(options.random() * ceiling);
  return Math.min(options.maxDelayMs, Math.max(backoff, retryAfterMs ?? 0));
}
