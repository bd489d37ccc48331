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

export function createDb(options: { url: string; poolMax: number; applicationName?: string }): Db {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolMax,
    application_name: options.applicationName ?? 'dubbing',
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
