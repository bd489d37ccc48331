import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { Client, Pool } from 'pg';
import { freePort } from '../../scripts/lib/free-port';
import { createBucket, resolveS3Server, startS3Server } from '../../scripts/lib/s3-server';
import { resolveTemporalCli, startTemporalDevServer } from '../../scripts/lib/temporal-dev-server';
import { migrateToLatest } from '../../src/db/migrator';
import { bundleWorkflows } from '../../src/worker/workflow-bundle';
import { testState } from './test-state';
import { quietBundleLogger } from '../helpers/quiet-bundle-logger';

// Runs once per `jest` run, in the parent process. What it sets in process.env reaches every
// test worker, which are forked afterwards.

const ROOT = path.resolve(__dirname, '..', '..');
const TMP = path.join(ROOT, '.test-tmp');

async function createTestDatabase(): Promise<{ url: string; name: string; adminUrl: string }> {
  // TEST_DATABASE_ADMIN_URL points at a server where we may CREATE DATABASE; the machine's
  // local server is the default. Each run gets its own database, so two clones never collide.
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `dubbing_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, adminUrl };
}

export default async function globalSetup(): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const started = Date.now();

  const database = await createTestDatabase();
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: database.url }) }) });
  await migrateToLatest(db);
  await db.destroy();

  const cli = resolveTemporalCli();
  const s3Binary = resolveS3Server();
  const port = await freePort();
  const s3Port = await freePort();
  // The S3-compatible server for the s3 driver's suites: its own data dir per run, like the database.
  const s3 = { dataDir: path.join(TMP, `s3-${s3Port}`), accessKeyId: 'dubbing-test', secretAccessKey: randomBytes(24).toString('hex'), region: 'us-east-1', bucket: 'dubbing-test' };
  const [server, bundle, s3Server] = await Promise.all([
    startTemporalDevServer({ cli, port, uiPort: null, dbFile: null, logFile: path.join(TMP, `temporal-${port}.log`) }),
    // The same bundle as the worker image's: the workflows with their tracing interceptors.
    bundleWorkflows(quietBundleLogger),
    startS3Server({
      binary: s3Binary,
      port: s3Port,
      consolePort: null,
      dataDir: s3.dataDir,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: s3.region,
      logFile: path.join(TMP, `s3-${s3Port}.log`),
    }),
  ]);
  testState.s3 = { server: s3Server, dataDir: s3.dataDir };
  await createBucket(s3Server.endpoint, s3, s3.bucket);
  const bundlePath = path.join(TMP, `workflow-bundle-${port}.js`);
  writeFileSync(bundlePath, bundle);

  testState.temporal = server;
  testState.database = database;
  process.env.NODE_ENV = 'test';
  // The suites' webhook receivers listen on 127.0.0.1; private targets are never inferred from
  // NODE_ENV (docs/webhooks.md), so the tests allow them explicitly unless told otherwise.
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ??= 'true';
  process.env.DATABASE_URL = database.url;
  process.env.TEMPORAL_ADDRESS = server.address;
  process.env.WORKFLOW_BUNDLE_PATH = bundlePath;
  process.env.STORAGE_DIR = path.join(TMP, `storage-${port}`);
  // The default driver stays local; a suite runs on s3 with test/helpers/storage-drivers.ts.
  process.env.TEST_S3_ENDPOINT = s3Server.endpoint;
  process.env.TEST_S3_BUCKET = s3.bucket;
  process.env.TEST_S3_REGION = s3.region;
  process.env.TEST_S3_ACCESS_KEY_ID = s3.accessKeyId;
  process.env.TEST_S3_SECRET_ACCESS_KEY = s3.secretAccessKey;
  process.stdout.write(`\n[global-setup] postgres db ${database.name}, temporal dev server ${server.address} ` + `(${cli}), versitygw ${s3Server.endpoint}, ready in ${Date.now() - started} ms\n`);
}
