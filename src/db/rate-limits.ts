import { sql } from 'kysely';
import type { Db } from './create-db';

// Request counts per API key, bucket and fixed window, shared by every API process
// (docs/rate-limits.md).

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

/**
 * Counts one request in its window if the window has room: the new count, or undefined when
 * `limit` requests were already counted there. One statement, so concurrent requests from any
 * number of processes are granted exactly `limit` between them, and the count is what was granted.
 */
export async function countWithin(db: Db, counter: Omit<CounterIncrement, 'add'>, limit: number): Promise<number | undefined> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ api_key_id: counter.apiKeyId, bucket: counter.bucket, window_start: counter.windowStart, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['api_key_id', 'bucket', 'window_start'])
        .doUpdateSet({ count: sql<number>`rate_limit_counters.count + 1` })
        .where('rate_limit_counters.count', '<', limit),
    )
    .returning('count')
    .executeTakeFirst();
  return row?.count;
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

/** Windows that ended before `before` can limit nobody any more. */
export async function deleteCountersBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function counterKey(apiKeyId: string, bucket: string, windowStart: Date): string {
  return `${apiKeyId} ${bucket} ${windowStart.getTime()}`;
}
