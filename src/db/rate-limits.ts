import { sql } from 'kysely';
import type { Db } from './create-db';

// Request counts per API key, bucket and fixed window, shared by every API process.

export type RateLimitBucket = 'read' | 'write';

export interface RateLimitCounterTable {
  api_key_id: string;
  bucket: RateLimitBucket;
  window_start: Date;
  count: number;
}

export interface CounterIncrement {
  apiKeyId: string;
  bucket: RateLimitBucket;
  windowStart: Date;
  add: number;
}

/** Adds each increment to its window's shared count and returns the new totals, in input order. */
export async function addToCounters(db: Db, increments: readonly CounterIncrement[]): Promise<number[]> {
  if (increments.length === 0) return [];
  const rows = await db
    .insertInto('rate_limit_counters')
    .values(increments.map((i) => ({ api_key_id: i.apiKeyId, bucket: i.bucket, window_start: i.windowStart, count: i.add })))
    .onConflict((oc) => oc.columns(['api_key_id', 'bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_counters.count + excluded.count` }))
    .returning(['api_key_id', 'bucket', 'window_start', 'count'])
    .execute();
  const totals = new Map(rows.map((r) => [counterKey(r.api_key_id, r.bucket, r.window_start), r.count]));
  return increments.map((i) => totals.get(counterKey(i.apiKeyId, i.bucket, i.windowStart)) ?? 0);
}

/**
 * Gives back write tokens a process reserved and did not use, so another process may grant them.
 * Returns the window's new total (0 when the window is gone).
 */
export async function takeFromCounter(db: Db, counter: Omit<CounterIncrement, 'add'>, amount: number): Promise<number> {
  const row = await db
    .updateTable('rate_limit_counters')
    .set({ count: sql<number>`greatest(count - ${amount}, 0)` })
    .where('api_key_id', '=', counter.apiKeyId)
    .where('bucket', '=', counter.bucket)
    .where('window_start', '=', counter.windowStart)
    .returning('count')
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** Windows that ended before `before` can limit nobody any more. */
export async function deleteCountersBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function counterKey(apiKeyId: string, bucket: string, windowStart: Date): string {
  return `${apiKeyId} ${bucket} ${windowStart.getTime()}`;
}
