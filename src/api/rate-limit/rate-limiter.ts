import { addToCounters, deleteCountersBefore, takeFromCounter, type CounterIncrement, type RateLimitBucket } from '../../db/rate-limits';
import type { Config } from '../../config';
import type { Db } from '../../db/create-db';
import type { Logger } from '../../logger';

// A per-key limit shared by every API process, kept in PostgreSQL (rate_limit_counters).
//
// Writes (POST, DELETE) must never pass the limit across the fleet, so a process only serves a
// write with a token it has reserved in the shared count. It reserves them a few at a time (a
// lease: at most a tenth of what the fleet has left, so leases shrink to one as the limit nears),
// which spares most writes a round trip of their own, and gives back, at the next sync, tokens it
// held unused for a whole sync interval or reserved past the limit: the count then says exactly
// how many writes were granted. Reads are the hot path (a cached GET costs one indexed query), so
// each process counts them in memory and adds its count to the shared one every
// `syncIntervalMs`, learning the fleet's total in the same statement: a key can overshoot by what
// the other processes served since their last sync, never more. The counter store failing lets
// requests through (logged): a limiter must not be the reason the API is down.

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

/** Where the shared counts live: PostgreSQL in the product (pgCounterStore). */
export interface CounterStore {
  /** Adds each increment to its window's count; the new totals, in input order. */
  add(increments: readonly CounterIncrement[]): Promise<number[]>;
  /** Takes `amount` back off one window's count; its new total. */
  giveBack(counter: Omit<CounterIncrement, 'add'>, amount: number): Promise<number>;
  deleteBefore(before: Date): Promise<unknown>;
}

export const pgCounterStore = (db: Db): CounterStore => ({
  add: (increments) => addToCounters(db, increments),
  giveBack: (counter, amount) => takeFromCounter(db, counter, amount),
  deleteBefore: (before) => deleteCountersBefore(db, before),
});

interface WindowCount {
  apiKeyId: string;
  bucket: RateLimitBucket;
  windowStart: number;
  /** The fleet's count as of this process's last statement on it (including what it added then). */
  shared: number;
  /** Reads served here since the last sync. */
  pending: number;
  /** Write tokens reserved in `shared` and not used yet. */
  lease: number;
  /** No write took a token from the lease since the last sync. */
  leaseIdle: boolean;
  /** Tokens reserved past the limit: counted in `shared`, never granted, given back at the next sync. */
  overshoot: number;
  /** When `shared` was last read from the store. */
  learnedAt: number;
  /** The reservation under way: concurrent writes wait for it rather than reserve their own. */
  reserving?: Promise<boolean>;
}

const CLEANUP_INTERVAL_MS = 60_000;
/** A lease is at most this fraction of what the fleet has left of the window… */
const LEASE_SHARE = 10;
/** …and never more than this many tokens. */
const MAX_LEASE = 100;

export class RateLimiter {
  private readonly windows = new Map<string, WindowCount>();
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private lastCleanup = 0;
  private closed = false;

  constructor(
    private readonly store: CounterStore,
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
    const counted = this.windowOf(apiKeyId, bucket, Math.floor(now / windowMs) * windowMs);
    if (bucket === 'write') return this.takeWrite(counted, limit, now);

    if (counted.shared + counted.pending >= limit) return this.decision(counted, limit, now, limit, false);
    counted.pending += 1;
    this.scheduleSync();
    return this.decision(counted, limit, now, counted.shared + counted.pending, true);
  }

  /** Adds every pending count to the shared counters, learns the fleet's totals, gives back idle tokens. */
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
    for (const counted of this.windows.values()) counted.leaseIdle = true; // give every token back
    await this.sync();
  }

  /** What the caller is told: `used` of `limit` taken in the window that `counted` counts. */
  private decision(counted: WindowCount, limit: number, now: number, used: number, allowed: boolean): RateLimitDecision {
    const windowMs = this.policy.windowSeconds * 1000;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil((counted.windowStart + windowMs - now) / 1000)),
      windowSeconds: this.policy.windowSeconds,
    };
  }

  private async takeWrite(counted: WindowCount, limit: number, now: number): Promise<RateLimitDecision> {
    let reservedHere = false;
    for (;;) {
      if (counted.lease > 0) {
        counted.lease -= 1;
        counted.leaseIdle = false;
        this.scheduleSync();
        return this.decision(counted, limit, now, counted.shared - counted.overshoot - counted.lease, true);
      }
      if (!counted.reserving) {
        // Spent, as far as this process knows. Tokens other processes give back make room again,
        // so a spent count is read afresh (by reserving one) at most once per sync interval.
        const spent = counted.shared - counted.overshoot >= limit;
        if (spent && (reservedHere || this.now() - counted.learnedAt < this.policy.syncIntervalMs)) return this.decision(counted, limit, now, limit, false);
        counted.reserving = this.reserve(counted, limit).finally(() => {
          counted.reserving = undefined;
        });
        reservedHere = true;
      }
      if (!(await counted.reserving)) {
        // The store is down: let the write through rather than take the API down with it.
        return this.decision(counted, limit, now, counted.shared - counted.overshoot, true);
      }
    }
  }

  /**
   * One statement reserves a lease of write tokens; false when the store could not be reached.
   * What the fleet has granted is the new total less this lease and less this process's own
   * tokens reserved past the limit (other processes' are unknown here, so a grant errs small).
   */
  private async reserve(counted: WindowCount, limit: number): Promise<boolean> {
    const size = Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - (counted.shared - counted.overshoot)) / LEASE_SHARE)));
    const ownOvershoot = counted.overshoot;
    try {
      const [total] = await this.store.add([{ apiKeyId: counted.apiKeyId, bucket: 'write', windowStart: new Date(counted.windowStart), add: size }]);
      const granted = Math.min(size, Math.max(0, limit - (total! - size - ownOvershoot)));
      counted.shared = total!; // the freshest count: tokens given back may have lowered it
      counted.learnedAt = this.now();
      counted.lease += granted;
      counted.overshoot += size - granted;
      if (granted < size) this.scheduleSync();
      return true;
    } catch (err) {
      this.logger.warn('rate limit store unavailable; request let through', { err });
      return false;
    }
  }

  private windowOf(apiKeyId: string, bucket: RateLimitBucket, windowStart: number): WindowCount {
    const key = `${apiKeyId} ${bucket}`;
    let counted = this.windows.get(key);
    if (!counted || counted.windowStart < windowStart) {
      // The previous window's unsynced reads still belong to it; add them before moving on.
      // Its unused write tokens no longer matter: that window is over.
      if (counted && counted.pending > 0) this.scheduleSync();
      if (counted && counted.pending > 0) this.windows.set(`${key} ${counted.windowStart}`, counted);
      counted = { apiKeyId, bucket, windowStart, shared: 0, pending: 0, lease: 0, leaseIdle: true, overshoot: 0, learnedAt: 0 };
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
    const batch = [...this.windows.values()].filter((counted) => counted.pending > 0);
    const sent = batch.map((counted) => counted.pending);
    for (const counted of batch) counted.pending = 0;
    try {
      if (batch.length > 0) {
        const totals = await this.store.add(
          batch.map((c, i) => ({ apiKeyId: c.apiKeyId, bucket: c.bucket, windowStart: new Date(c.windowStart), add: sent[i]! })),
        );
        batch.forEach((counted, i) => (counted.shared = Math.max(counted.shared, totals[i]!)));
      }
    } catch (err) {
      batch.forEach((counted, i) => (counted.pending += sent[i]!));
      this.logger.warn('rate limit counts not synced; retrying', { err });
      this.scheduleSync();
      return;
    }
    await this.giveBackWriteTokens();
    this.forgetPastWindows();
    await this.deleteOldCounters();
  }

  /**
   * Tokens reserved past the limit, and a lease no write touched for a whole interval, go back
   * to the shared count, where another process can grant them. A lease still in use waits.
   */
  private async giveBackWriteTokens(): Promise<void> {
    const current = this.currentWindowStart();
    for (const counted of this.windows.values()) {
      if (counted.bucket !== 'write' || counted.windowStart < current) continue;
      if (counted.reserving) {
        // A reservation in flight counted this process's tokens past the limit as its own when
        // it sized its grant; taken off the shared count under it, they would be granted twice.
        this.scheduleSync();
        continue;
      }
      const idle = counted.leaseIdle ? counted.lease : 0;
      const amount = counted.overshoot + idle;
      counted.leaseIdle = true;
      counted.lease -= idle;
      counted.overshoot = 0;
      if (counted.lease > 0) this.scheduleSync(); // a lease in use: look again next interval
      if (amount === 0) continue;
      try {
        counted.shared = await this.store.giveBack({ apiKeyId: counted.apiKeyId, bucket: 'write', windowStart: new Date(counted.windowStart) }, amount);
        counted.learnedAt = this.now();
      } catch (err) {
        // Not given back: they stay counted and unused, so the fleet serves fewer, never more.
        this.logger.warn('unused rate limit tokens not given back', { err });
      }
    }
  }

  private currentWindowStart(): number {
    const windowMs = this.policy.windowSeconds * 1000;
    return Math.floor(this.now() / windowMs) * windowMs;
  }

  private forgetPastWindows(): void {
    const current = this.currentWindowStart();
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
      await this.store.deleteBefore(new Date(now - keep));
    } catch (err) {
      this.logger.warn('old rate limit counters not deleted', { err });
    }
  }
}

export function rateLimiterFromConfig(config: Config, db: Db, logger: Logger): RateLimiter {
  const { windowSeconds, reads, writes, syncIntervalMs } = config.rateLimits;
  return new RateLimiter(pgCounterStore(db), { windowSeconds, limits: { read: reads, write: writes }, syncIntervalMs }, logger);
}
