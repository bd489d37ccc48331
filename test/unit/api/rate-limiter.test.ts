import fc from 'fast-check';
import { RateLimiter, type CounterStore } from '../../../src/api/rate-limit/rate-limiter';
import type { CounterIncrement } from '../../../src/db/rate-limits';
import { createLogger } from '../../../src/logger';

// The limiter's leasing of write tokens, against an in-memory counter store that stands for the
// shared table (the real one is exercised by test/integration/rate-limits.test.ts). Several
// limiters on one store are several API processes.

class MemoryStore implements CounterStore {
  readonly counts = new Map<string, number>();
  statements = 0;
  down = false;
  /** How many event-loop turns each statement takes before it applies (cycled), so statements sent at once can land in any order. */
  delays: number[] = [];

  async add(increments: readonly CounterIncrement[]): Promise<number[]> {
    this.statement();
    await this.travel();
    return increments.map((i) => {
      const key = MemoryStore.key(i);
      const total = (this.counts.get(key) ?? 0) + i.add;
      this.counts.set(key, total);
      return total;
    });
  }

  async giveBack(counter: Omit<CounterIncrement, 'add'>, amount: number): Promise<number> {
    this.statement();
    await this.travel();
    const key = MemoryStore.key(counter);
    const total = Math.max(0, (this.counts.get(key) ?? 0) - amount);
    this.counts.set(key, total);
    return total;
  }

  async deleteBefore(): Promise<void> {}

  writes(apiKeyId: string): number {
    return [...this.counts].filter(([key]) => key.startsWith(`${apiKeyId} write`)).reduce((sum, [, n]) => sum + n, 0);
  }

  private async travel(): Promise<void> {
    const turns = this.delays.length > 0 ? this.delays[this.statements % this.delays.length]! : 0;
    for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  private statement(): void {
    this.statements += 1;
    if (this.down) throw new Error('connection refused');
  }

  private static key(c: Omit<CounterIncrement, 'add'>): string {
    return `${c.apiKeyId} ${c.bucket} ${c.windowStart.getTime()}`;
  }
}

const logger = createLogger('error');
// A clock that moves only when a test moves it, early in an hour-long window, and a sync interval
// of a minute: no timer fires while a test runs, syncs happen when a test says.
const WINDOW_START = 3_600_000 * 300_000;
const SYNC_MS = 60_000;
let now = WINDOW_START + 1000;
beforeEach(() => {
  now = WINDOW_START + 1000;
});
const limiter = (store: CounterStore, writes: number) =>
  new RateLimiter(store, { windowSeconds: 3600, limits: { read: 0, write: writes }, syncIntervalMs: SYNC_MS }, logger, () => now);

async function writes(process: RateLimiter, n: number, key = 'key_1'): Promise<boolean[]> {
  const allowed: boolean[] = [];
  for (let i = 0; i < n; i++) allowed.push((await process.take(key, 'write'))!.allowed);
  return allowed;
}

describe('RateLimiter write leases', () => {
  it('serves exactly the limit from one process with far fewer statements than writes', async () => {
    const store = new MemoryStore();
    const api = limiter(store, 100);
    const allowed = await writes(api, 101);
    expect(allowed.filter(Boolean)).toHaveLength(100);
    expect(allowed[100]).toBe(false);
    // Leases of a tenth of what is left, shrinking to 1: about 30 statements for 100 writes.
    expect(store.statements).toBeLessThan(45);
    expect(store.writes('key_1')).toBe(100); // the 101st was refused without a statement
  });

  it('reports what is left of the limit, counting what this process holds unused as left', async () => {
    const api = limiter(new MemoryStore(), 100);
    const first = await api.take('key_1', 'write');
    expect(first).toMatchObject({ allowed: true, limit: 100, remaining: 99 });
    const second = await api.take('key_1', 'write');
    expect(second!.remaining).toBe(98);
  });

  it('gives an idle lease back at the next sync so another process can grant it', async () => {
    const store = new MemoryStore();
    const a = limiter(store, 100);
    const b = limiter(store, 100);
    await writes(a, 1); // a reserves 10 (a tenth of 100) and uses 1
    expect((await writes(b, 91)).filter(Boolean)).toHaveLength(90); // a holds 9
    await a.sync(); // used since the last sync: kept
    await a.sync(); // idle a whole interval: given back
    await b.sync(); // what b reserved past the limit goes back too
    expect(store.writes('key_1')).toBe(91);
    // b still believes the limit spent, until a sync interval has passed.
    expect(await writes(b, 1)).toEqual([false]);
    now += SYNC_MS;
    expect(await writes(b, 10)).toEqual([...Array(9).fill(true), false]);
    await b.sync();
    expect(store.writes('key_1')).toBe(100);
  });

  it('does not give back a lease in use, and gives it back once it sat idle for an interval', async () => {
    const store = new MemoryStore();
    const a = limiter(store, 1000);
    await writes(a, 1); // reserves 100
    expect(store.writes('key_1')).toBe(100);
    await a.sync();
    expect(store.writes('key_1')).toBe(100); // used since the last sync: kept
    await a.sync();
    expect(store.writes('key_1')).toBe(1); // idle a whole interval: 99 go back
    // The process still serves: it reserves again.
    expect(await writes(a, 1)).toEqual([true]);
    expect(store.writes('key_1')).toBe(2 + 98);
  });

  it('reserves once for many concurrent writes that find the lease empty', async () => {
    const store = new MemoryStore();
    const api = limiter(store, 1000);
    const decisions = await Promise.all(Array.from({ length: 20 }, () => api.take('key_1', 'write')));
    expect(decisions.every((d) => d!.allowed)).toBe(true);
    expect(store.statements).toBe(1);
  });

  it('lets writes through when the store is down, and leases again once it is back', async () => {
    const store = new MemoryStore();
    const api = limiter(store, 5);
    store.down = true;
    expect(await writes(api, 8)).toEqual(Array(8).fill(true));
    store.down = false;
    expect(await writes(api, 6)).toEqual([true, true, true, true, true, false]);
  });

  it('gives every token back on close', async () => {
    const store = new MemoryStore();
    const api = limiter(store, 1000);
    await writes(api, 3);
    await api.close();
    expect(store.writes('key_1')).toBe(3);
  });

  it('never grants more than the limit across processes, and grants all of it once idle leases are back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.record({ process: fc.integer({ min: 0, max: 2 }), writes: fc.integer({ min: 0, max: 40 }), sync: fc.boolean(), later: fc.boolean() }), { maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 7 }),
        async (limit, steps, delays) => {
          now = WINDOW_START + 1000;
          const store = new MemoryStore();
          store.delays = delays;
          const fleet = [limiter(store, limit), limiter(store, limit), limiter(store, limit)];
          let granted = 0;
          for (const step of steps) {
            const process = fleet[step.process]!;
            // A sync interval passes (staying inside the hour-long window): spent counts are read afresh.
            if (step.later) now += SYNC_MS;
            // The process syncs while its writes are being decided: a give-back may cross a reservation.
            const [decisions] = await Promise.all([
              Promise.all(Array.from({ length: step.writes }, () => process.take('key_1', 'write'))),
              step.sync ? process.sync() : undefined,
            ]);
            granted += decisions.filter((d) => d!.allowed).length;
            expect(granted).toBeLessThanOrEqual(limit);
          }
          // Two syncs everywhere: every unused token and every overshoot is back in the count.
          for (let i = 0; i < 2; i++) for (const process of fleet) await process.sync();
          expect(store.writes('key_1')).toBe(granted);
          // A sync interval later, one process alone can grant the rest, to the limit exactly.
          now += SYNC_MS;
          granted += (await writes(fleet[0]!, limit - granted + 1)).filter(Boolean).length;
          expect(granted).toBe(limit);
          for (const process of fleet) await process.close();
        },
      ),
      { numRuns: 300 },
    );
  });
});
