import type { Reader } from './reader';

// Requests per API key, shared by every API process (docs/rate-limits.md).

export interface RateLimitsConfig {
  readonly windowSeconds: number;
  /** GET requests per key per window; 0: unlimited. */
  readonly reads: number;
  /** POST and DELETE requests (creates, paid calls) per key per window; 0: unlimited. */
  readonly writes: number;
  /** How often each API process adds the reads it counted in memory to the shared count and learns the fleet's total (writes are counted one statement each). */
  readonly syncIntervalMs: number;
  /** Failed authentications per client address per minute, in each API process; 0: unlimited. */
  readonly authFailuresPerMinute: number;
}

export function readRateLimits(read: Reader): RateLimitsConfig {
  return {
    windowSeconds: read.int('RATE_LIMIT_WINDOW_SECONDS', 10, 1, 3600),
    reads: read.int('RATE_LIMIT_READS', 1000, 0, 100_000_000),
    writes: read.int('RATE_LIMIT_WRITES', 100, 0, 100_000_000),
    syncIntervalMs: read.int('RATE_LIMIT_SYNC_MS', 100, 10, 60_000),
    authFailuresPerMinute: read.int('RATE_LIMIT_AUTH_FAILURES', 30, 0, 100_000_000),
  };
}
