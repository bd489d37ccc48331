import type { Reader } from './reader';

// PostgreSQL: where it is and how many connections each process holds.

export interface DatabaseConfig {
  /** Null means "find one": the local server on 127.0.0.1:5432, else embedded (dev only). */
  readonly url: string | null;
  readonly poolMax: number;
  /** How long a query waits for a connection before failing (the API then answers 503). */
  readonly connectTimeoutMs: number;
}

export const DEFAULT_LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/dubbing';

export function readDatabase(read: Reader): DatabaseConfig {
  return {
    url: read.url('DATABASE_URL', null, ['postgres:', 'postgresql:']),
    // At least 2: a reconciler pass holds one connection for its lock while it repairs on others.
    poolMax: read.int('DATABASE_POOL_MAX', 10, 2, 1000),
    connectTimeoutMs: read.int('DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 120_000),
  };
}
