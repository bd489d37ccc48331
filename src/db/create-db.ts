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

/** `connectTimeoutMs` bounds the wait for a connection: with the database down, a request fails within it (503) instead of hanging. */
export interface PoolOptions {
  url: string;
  poolMax: number;
  applicationName?: string;
  connectTimeoutMs?: number;
}

export function createPool(options: PoolOptions): Pool {
  const pool = new Pool({ connectionString: options.url, max: options.poolMax, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000, application_name: options.applicationName ?? 'dubbing' });
  // A connection whose server went away (a restart, a failover) emits `error`, idle in the pool
  // or checked out between statements; unhandled, that would end the process. The pool drops
  // it, and a statement sent on it fails instead (the step retries).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** Queries on `pool`, or on a new one; destroying the Db ends the pool. */
export function createDb(from: PoolOptions | Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: from instanceof Pool ? from : createPool(from) }) });
}
