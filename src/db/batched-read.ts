import DataLoader from 'dataloader';
import { isDatabaseUnavailable } from './database-unavailable';

/** A read of one key, answered from a statement that may carry other requests' keys as well. */
export type BatchedRead<K, V> = (key: K) => Promise<V>;

/**
 * Coalesces the reads that arrive in the same turn of the event loop into one statement: every
 * request whose bytes Node parsed in one poll of its sockets has reached its read by the time
 * `setImmediate` fires, so under load one statement (one round trip, one executor start in
 * PostgreSQL) answers many requests, and an idle API sends each read alone without waiting for
 * any timer. Nothing is cached: every read sees the database as of the statement that answers it,
 * which runs after the request arrived (read-your-writes holds across API processes).
 *
 * `runBatch` answers the keys in their order, one value each. If a statement carrying several keys
 * fails for a reason other than the database being gone, each key is read again alone, so one
 * request's bad value never fails the requests it happened to share a statement with.
 */
export function batchedRead<K, V>(runBatch: (keys: readonly K[]) => Promise<readonly V[]>, maxBatchSize = 100): BatchedRead<K, V> {
  const loader = new DataLoader<K, V>(
    async (keys) => {
      try {
        return await runBatch(keys);
      } catch (err) {
        if (keys.length === 1 || isDatabaseUnavailable(err)) throw err;
        return Promise.all(keys.map((key) => runBatch([key]).then((values) => values[0] as V, (alone: unknown) => (alone instanceof Error ? alone : new Error(String(alone))))));
      }
    },
    // No memo: a loader lives as long as the process, and each read must see the database now.
    { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return (key) => loader.load(key);
}
