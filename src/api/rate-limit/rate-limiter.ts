import { addToCounters, deleteCountersBefore, type RateLimitBucket } from '../../db/rate-limits';
import type { Config } from '../../config';
import type { Db } from '../../db/create-db';
import type { Logger } from '../../logger';

// A per-key limit shared by every API process, kept in PostgreSQL (rate_limit_counters).
//
// Writes (POST, DELETE) are rare and already cost several queries each, so each one adds itself
// to the shared count before it is answered: across the fleet, exactly `limit` writes pass per
// window. Reads are the hot path (a cached GET costs one indexed query), so each process counts
// them in memory and adds its count to the shared one every `syncIntervalMs`, learning the
// fleet's total in the same statement: a key can overshoot by what the other processes served
// since their last sync, never more. The counter store failing lets requests through (logged):
// a limiter must not be the reason the API is down.

export interface RateLimitPolicy {
  windowSeconds: number;
  /** Requests per key per window; 0 leaves the bucket unlimited. */
  limits: Readonly<Record<RateLimitBucket, number>>;
  syncIntervalMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
  windowSeconds: number;
}

interface WindowCount {
  apiKeyId: string;
  bucket: RateLimitBucket;
  windowStart: number;
  /** The fleet's total as of this process's last sync (including what it added then). */
  shared: number;
  /** Served here since the last sync. */
  pending: number;
}

const CLEANUP_INTERVAL_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, WindowCount>();
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private lastCleanup = 0;
  private closed = false;

  constructor(
    private readonly db: Db,
    readonly policy: RateLimitPolicy,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of this key; null when the bucket is unlimited. */
  async take(apiKeyId: string, bucket: RateLimitBucket): Promise<RateLimitDecision | null> {
    const limit = this.policy.limits[bucket];
    if (limit === 0) return null;
    const now = this.now();
    const windowMs = this.policy.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const decide = (used: number, allowed: boolean): RateLimitDecision => ({
      allowed,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
      windowSeconds: this.policy.windowSeconds,
    });
    const counted = this.windowOf(apiKeyId, bucket, windowStart);
    if (counted.shared + counted.pending >= limit) return decide(limit, false);

    if (bucket === 'write') {
      try {
        const [total] = await addToCounters(this.db, [{ apiKeyId, bucket, windowStart: new Date(windowStart), add: 1 }]);
        counted.shared = Math.max(counted.shared, total!);
        return decide(total!, total! <= limit);
      } catch (err) {
        this.logger.warn('rate limit store unavailable; request let through', { err });
        counted.pending += 1;
        return decide(counted.shared + counted.pending, true);
      }
    }
    counted.pending += 1;
    this.scheduleSync();
    return decide(counted.shared + counted.pending, true);
  }

  /** Adds every pending count to the shared counters and learns the fleet's totals. */
  async sync(): Promise<void> {
    while (this.syncing) await this.syncing;
    this.syncing = this.syncOnce().finally(() => {
      this.syncing = undefined;
    });
    await this.syncing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.sync();
  }

  private windowOf(apiKeyId: string, bucket: RateLimitBucket, windowStart: number): WindowCount {
    const key = `${apiKeyId} ${bucket}`;
    let counted = this.windows.get(key);
    if (!counted || counted.windowStart < windowStart) {
      // The previous window's unsynced reads still belong to it; add them before moving on.
      if (counted && counted.pending > 0) this.scheduleSync();
      if (counted && counted.pending > 0) this.windows.set(`${key} ${counted.windowStart}`, counted);
      counted = { apiKeyId, bucket, windowStart, shared: 0, pending: 0 };
      this.windows.set(key, counted);
    }
    return counted;
  }

  private scheduleSync(): void {
    if (this.syncTimer !== undefined || this.closed) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      void this.sync();
    }, this.policy.syncIntervalMs);
    this.syncTimer.unref();
  }

  private async syncOnce(): Promise<void> {
    const batch = [...this.windows.entries()].filter(([, counted]) => counted.pending > 0);
    const sent = batch.map(([, counted]) => counted.pending);
    for (const [, counted] of batch) counted.pending = 0;
    try {
      if (batch.length > 0) {
        const totals = await addToCounters(
          this.db,
          batch.map(([, c], i) => ({ apiKeyId: c.apiKeyId, bucket: c.bucket, windowStart: new Date(c.windowStart), add: sent[i]! })),
        );
        batch.forEach(([, counted], i) => (counted.shared = Math.max(counted.shared, totals[i]!)));
      }
    } catch (err) {
      batch.forEach(([, counted], i) => (counted.pending += sent[i]!));
      this.logger.warn('rate limit counts not synced; retrying', { err });
      this.scheduleSync();
      return;
    }
    this.forgetPastWindows();
    await this.deleteOldCounters();
  }

  private forgetPastWindows(): void {
    const current = Math.floor(this.now() / (this.policy.windowSeconds * 1000)) * this.policy.windowSeconds * 1000;
    for (const [key, counted] of this.windows) {
      if (counted.windowStart < current && counted.pending === 0) this.windows.delete(key);
    }
  }

  private async deleteOldCounters(): Promise<void> {
    const now = this.now();
    if (now - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = now;
    const keep = Math.max(2 * this.policy.windowSeconds * 1000, CLEANUP_INTERVAL_MS);
    try {
      await deleteCountersBefore(this.db, new Date(now - keep));
    } catch (err) {
      this.logger.warn('old rate limit counters not deleted', { err });
    }
  }
}

export function rateLimiterFromConfig(config: Config, db: Db, logger: Logger): RateLimiter {
  const { windowSeconds, reads, writes, syncIntervalMs } = config.rateLimits;
  return new RateLimiter(db, { windowSeconds, limits: { read: reads, write: writes }, syncIntervalMs }, logger);
}
