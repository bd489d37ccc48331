/** Addresses tracked in one window; past it, new addresses share one count (see `countFor`). */
const MAX_ADDRESSES = 100_000;
const OVERFLOW = '(addresses past the table)';

/**
 * Failed authentications per client address, in fixed windows aligned to the clock, in this
 * process's memory (docs/rate-limits.md): a wrong key costs a database read, and counting it in
 * the database would cost a write. An address past the limit is refused (429) until the window
 * ends, before any key lookup; a key this process has already verified still passes.
 */
export class AuthFailureLimiter {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly windowSeconds = 60,
  ) {}

  /** Seconds until `address` may try again; 0 when it may try now. */
  blockedFor(address: string, now = Date.now()): number {
    if (this.limit === 0) return 0;
    this.roll(now);
    if ((this.counts.get(this.countFor(address)) ?? 0) < this.limit) return 0;
    const windowMs = this.windowSeconds * 1000;
    return Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000));
  }

  recordFailure(address: string, now = Date.now()): void {
    if (this.limit === 0) return;
    this.roll(now);
    const key = this.countFor(address);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A full table must not reset anyone's count: addresses it cannot hold share one instead. */
  private countFor(address: string): string {
    return this.counts.has(address) || this.counts.size < MAX_ADDRESSES ? address : OVERFLOW;
  }

  private roll(now: number): void {
    const window = Math.floor(now / (this.windowSeconds * 1000));
    if (window === this.window) return;
    this.window = window;
    this.counts.clear();
  }
}
