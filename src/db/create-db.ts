import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import type { Database } from './database';

// bigint columns hold credit amounts; they stay far below 2^53, so parse them as numbers
// rather than strings, and fail loudly if one ever is not exact.
types.setTypeParser(types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`bigint out of safe range: ${value}`);
  return parsed;
});

export type Db = Kysely<Database>;

/**
 * @param connectTimeoutMs bounds how long a query waits for a connection: with the database down,
 * a request fails within it (503) instead of hanging on pg's default of waiting forever.
 */
export interface PoolOptions {
  url: string;
  poolMax: number;
  applicationName?: string;
  connectTimeoutMs?: number;
}

export function createPool(options: PoolOptions): Pool {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    application_name: options.applicationName ?? 'dubbing',
  });
  // An idle connection whose server went away (restart, failover: 57P01) is reported on the
  // pool; unhandled, that event would kill the whole process. The pool has already dropped it.
  pool.on('error', () => undefined);
  // A connection that dies while checked out but between statements emits `error` with no
  // listener from the pool: the next statement on it fails instead (the step retries), and the
  // pool discards it on release as no longer queryable.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Queries on `pool`, or on a new one; destroying the Db ends the pool. */
export function createDb(from: PoolOptions | Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: from instanceof Pool ? from : createPool(from) }) });
}
