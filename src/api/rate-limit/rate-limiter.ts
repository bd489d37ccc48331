import { addToCounters, countWithin, deleteCountersBefore, type RateLimitBucket } from '../../db/rate-limits';
import type { Config } from '../../config';
import type { Db } from '../../db/create-db';
import type { Logger } from '../../logger';

// A per-key limit in fixed windows, shared by every API process through PostgreSQL
// (rate_limit_counters; docs/rate-limits.md#shared-by-every-api-process): a write is counted by
// one statement in the request, reads in memory and added to the shared count every
// `syncIntervalMs`. A failing counter store lets requests through (logged).

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

interface ReadCount {
  apiKeyId: string;
  windowStart: number;
  /** The fleet's count as of this process's last sync (including what it added then). */
  shared: number;
  /** Reads served here since the last sync. */
  pending: number;
}

const CLEANUP_INTERVAL_MS = 60_000;

export class RateLimiter {
  /** This process's read counts, by key (the current window) or key and window (a past one not synced yet). */
  private readonly reads = new Map<string, ReadCount>();
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

  /** Counts one request of this key; null when the bucket is unlimited or the count could not be kept. */
  async take(apiKeyId: string, bucket: RateLimitBucket): Promise<RateLimitDecision | null> {
    const limit = this.policy.limits[bucket];
    if (limit === 0) return null;
    const now = this.now();
    const windowMs = this.policy.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const decision = (used: number, allowed: boolean): RateLimitDecision => ({ allowed, limit, remaining: Math.max(0, limit - used), resetSeconds, windowSeconds: this.policy.windowSeconds });

    if (bucket === 'write') {
      this.deleteOldCounters(now);
      try {
        const count = await countWithin(this.db, { apiKeyId, bucket, windowStart: new Date(windowStart) }, limit);
        return count === undefined ? decision(limit, false) : decision(count, true);
      } catch (err) {
        this.logger.warn('rate limit store unavailable; request let through', { err });
        return null;
      }
    }

    const counted = this.readCount(apiKeyId, windowStart);
    if (counted.shared + counted.pending >= limit) return decision(limit, false);
    counted.pending += 1;
    this.scheduleSync();
    return decision(counted.shared + counted.pending, true);
  }

  /** Adds every pending read count to the shared counters and learns the fleet's totals. */
  async sync(): Promise<void> {
    while (this.syncing) await this.syncing;
    this.syncing = this.syncOnce().finally(() => (this.syncing = undefined));
    await this.syncing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.sync();
  }

  private readCount(apiKeyId: string, windowStart: number): ReadCount {
    let counted = this.reads.get(apiKeyId);
    if (!counted || counted.windowStart < windowStart) {
      // The previous window's unsynced reads still belong to it: they are added at the next sync.
      if (counted && counted.pending > 0) this.reads.set(`${apiKeyId} ${counted.windowStart}`, counted);
      counted = { apiKeyId, windowStart, shared: 0, pending: 0 };
      this.reads.set(apiKeyId, counted);
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
    const batch = [...this.reads.values()].filter((counted) => counted.pending > 0);
    const sent = batch.map((counted) => counted.pending);
    for (const counted of batch) counted.pending = 0;
    try {
      const totals = await addToCounters(
        this.db,
        batch.map((c, i) => ({ apiKeyId: c.apiKeyId, bucket: 'read', windowStart: new Date(c.windowStart), add: sent[i]! })),
      );
      batch.forEach((counted, i) => (counted.shared = Math.max(counted.shared, totals[i]!)));
    } catch (err) {
      batch.forEach((counted, i) => (counted.pending += sent[i]!));
      this.logger.warn('rate limit counts not synced; retrying', { err });
      this.scheduleSync();
      return;
    }
    // Past windows are done with once synced.
    const windowMs = this.policy.windowSeconds * 1000;
    const current = Math.floor(this.now() / windowMs) * windowMs;
    for (const [key, counted] of this.reads) if (counted.windowStart < current && counted.pending === 0) this.reads.delete(key);
    this.deleteOldCounters(this.now());
  }

  /** At most once a minute per process, in the background: windows long over are deleted. */
  private deleteOldCounters(now: number): void {
    if (now - this.lastCleanup < CLEANUP_INTERVAL_MS || this.closed) return;
    this.lastCleanup = now;
    const keep = Math.max(2 * this.policy.windowSeconds * 1000, CLEANUP_INTERVAL_MS);
    deleteCountersBefore(this.db, new Date(now - keep)).catch((err: unknown) => this.logger.warn('old rate limit counters not deleted', { err }));
  }
}

export function rateLimiterFromConfig(config: Config, db: Db, logger: Logger): RateLimiter {
  const { windowSeconds, reads, writes, syncIntervalMs } = config.rateLimits;
  return new RateLimiter(db, { windowSeconds, limits: { read: reads, write: writes }, syncIntervalMs }, logger);
}
