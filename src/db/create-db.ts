import { createHash } from 'node:crypto';
import { CompiledQuery, Kysely, PostgresDialect, sql, type RawBuilder } from 'kysely';
import { Client, Pool, Query, types, type QueryResult } from 'pg';
import type { Database } from './database';

// bigint columns hold credit amounts; they stay far below 2^53, so parse them as numbers
// rather than strings, and fail loudly if one ever is not exact.
types.setTypeParser(types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`bigint out of safe range: ${value}`);
  return parsed;
});

export type Db = Kysely<Database>;

const PREPARED_MARKER = '/* prepared */ ';

/**
 * Put first in a hot statement whose best plan does not depend on its parameters (key lookups,
 * inserts): it is then sent as a named prepared statement, so each connection parses it once and
 * PostgreSQL, after its usual five custom plans, reuses a generic one instead of planning it on
 * every call (planning was most of the database's work for the create and video-list statements;
 * docs/benchmarks.md). Never for a statement whose plan should follow its values, such as a
 * title search, whose generic plan scans a whole channel.
 */
export const prepared: RawBuilder<unknown> = sql.raw(PREPARED_MARKER);

/** A statement written once as SQL, marked for preparing: runPrepared's way through Kysely, in a transaction. */
function preparedStatement<R>(text: string, parameters: readonly unknown[]): CompiledQuery<R> {
  return CompiledQuery.raw(PREPARED_MARKER + text, [...parameters]) as CompiledQuery<R>;
}

/** Statement names by text: a hot statement's text repeats on every call, hashing it need not. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // Marked statements are a fixed set of texts in the code; the bound only guards a mistake.
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** Names a marked statement after its text, so each distinct text is prepared once per connection. */
class PreparingClient extends Client {
  constructor(config?: ConstructorParameters<typeof Client>[0]) {
    super(config);
    // A connection that dies while checked out but between statements (PostgreSQL restarting
    // under a transaction) emits `error` with no listener from the pool: unhandled, that would
    // end the process. The next statement on it fails instead (the step retries), and the pool
    // discards it on release as no longer queryable.
    this.on('error', () => undefined);
  }

  // pg's query() has many overloads; this passes every call through unchanged except marked text.
  // A marked statement goes in as a ready Query, named: handed a config object instead, pg would
  // copy it property by property on every call, a measurable share of a hot read's CPU.
  override query(...args: any[]): any {
    const [text, values, done] = args;
    if (typeof text === 'string' && text.startsWith(PREPARED_MARKER) && (args.length <= 2 || (args.length === 3 && typeof done === 'function'))) {
      // `name` and `callback` are plain fields pg reads when it sends the query (not in its types).
      const query = new Query(text, values) as unknown as Query & { name: string; callback: (err: Error | undefined, result: unknown) => void };
      query.name = statementName(text);
      if (done) {
        // The pool's own query() (runPrepared) hands a callback: no promise is made for it.
        query.callback = done;
        return super.query(query);
      }
      return new Promise((resolve, reject) => {
        query.callback = (err: Error | undefined, result: unknown) => (err ? reject(err) : resolve(result));
        super.query(query);
      }).catch((err: Error) => {
        // As pg does: a stack that leads back to the caller rather than to the socket read.
        Error.captureStackTrace(err);
        throw err;
      });
    }
    return (super.query as any)(...args);
  }
}

/**
 * @param connectTimeoutMs bounds how long a query waits for a connection: with the database down,
 * a request fails within it (503) instead of hanging on pg's default of waiting forever.
 */
export function createDb(options: { url: string; poolMax: number; applicationName?: string; connectTimeoutMs?: number }): Db {
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    application_name: options.applicationName ?? 'dubbing',
    Client: PreparingClient,
  });
  // An idle connection whose server went away (restart, failover: 57P01) is reported on the
  // pool; unhandled, that event would kill the whole process. The pool has already dropped that
  // connection and the next query opens a new one, so there is nothing more to do here.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  poolsByDb.set(db, pool);
  return db;
}

/** The pool behind each Db that createDb made; a transaction (or any other executor) has none. */
const poolsByDb = new WeakMap<object, Pool>();

/**
 * Runs a statement written once as SQL (positional $1, $2 ...) as a named prepared statement and
 * returns its rows. Outside a transaction it goes straight to the pool, as a bare pg server would:
 * no query-builder executor, connection provider or plugin pass between the caller and pg, which
 * on the hottest reads (an exact-id video search, the cached GET's version check) cost about as
 * much as the rest of the request's JavaScript did (docs/benchmarks.md). Inside a transaction it
 * runs on the transaction's connection through Kysely, as every other statement does.
 */
export async function runPrepared<R>(db: Db, text: string, parameters: readonly unknown[]): Promise<R[]> {
  const pool = poolsByDb.get(db);
  if (!pool) return [...(await db.executeQuery(preparedStatement<R>(text, parameters))).rows];
  try {
    return await queryPool<R>(pool, PREPARED_MARKER + text, [...parameters]);
  } catch (err) {
    // Taken here, after the await, the stack leads back through the callers, as pg's own does.
    if (err instanceof Error) Error.captureStackTrace(err);
    throw err;
  }
}

function queryPool<R>(pool: Pool, text: string, values: unknown[]): Promise<R[]> {
  return new Promise<R[]>((resolve, reject) => {
    pool.query(text, values, (err: Error | undefined, result: QueryResult) => (err ? reject(err) : resolve(result.rows as R[])));
  });
}
