import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createApp } from '../../src/api/app';
import { answerClientErrors } from '../../src/api/client-errors';
import { rateLimiterFromConfig, type RateLimiter } from '../../src/api/rate-limit/rate-limiter';
import { responseContract } from './response-contract';
import { youTubeDataApiFromConfig } from '../../src/sources/youtube/data-api-client';
import { ApiKeyCache } from '../../src/auth/api-key-cache';
import { loadConfig, type Config } from '../../src/config';
import { createDb, createPool, type Db } from '../../src/db/create-db';
import { detectCapabilities, type EngineCapabilities } from '../../src/engines/capabilities';
import { publishWorker, retireWorker } from '../../src/db/worker-capabilities';
import { startCapabilityCache, type CapabilityCache } from '../../src/fleet/capability-cache';
import { createLogger, type Logger } from '../../src/logger';
import type { BlobStore } from '../../src/storage/blob-store';
import { createStorage } from '../../src/storage/create-storage';
import type { DownloadLinks } from '../../src/storage/download-links';
import type { MultipartUploads } from '../../src/storage/multipart-uploads';
import type { UrlSigner } from '../../src/storage/url-signer';
import { createTemporalClient } from '../../src/temporal/connection';
import type { Client } from '@temporalio/client';
import type { KyselyPlugin } from 'kysely';
import type { Pool } from 'pg';

// The real Koa app over real HTTP (port 0), on the run's real PostgreSQL and Temporal server.

export interface TestApi {
  baseUrl: string;
  config: Config;
  db: Db;
  /** The pool behind `db` and the app's queries (findProjectView runs on it by name). */
  pool: Pool;
  temporal: Client;
  /** The API's copy of its fleet's capabilities; refresh() to see a worker that just joined. */
  capabilities: CapabilityCache;
  blobStore: BlobStore;
  urlSigner: UrlSigner;
  uploads: MultipartUploads;
  downloadLinks: DownloadLinks;
  /** `METHOD /path` of every request this server received, in order (e.g. to prove a part bypassed the API). */
  requests: string[];
  /** The app's key cache, e.g. to sync() with revocations before asserting on them. */
  keyCache: ApiKeyCache;
  /** The app's rate limiter, e.g. to sync() its reads with the shared counters. */
  rateLimiter: RateLimiter;
  close(): Promise<void>;
}

let cachedCapabilities: Promise<EngineCapabilities> | undefined;

export function testConfig(overrides: Record<string, string> = {}): Config {
  // Workers render no voice samples unless a test asks: most test files never play one (docs/voices.md#samples).
  // Nor do they keep translators warm for a next edit that most never make, holding 0.1-0.3 GB
  // each (docs/design.md#warm-translation; test/unit/engines/translate/apertium-pipelines.test.ts).
  return loadConfig({ ...process.env, LOG_LEVEL: 'error', WORKER_VOICE_SAMPLES: 'false', TRANSLATOR_WARM_SECONDS: '0', ...overrides });
}

/**
 * What the API knows of its workers at start. `last-known` (the default) records this machine's
 * full engine set as a worker that has just stopped, so a file that starts no worker can still
 * create projects (they wait for a worker, as in production); `none` leaves the fleet empty,
 * for a test whose real worker processes publish their own, and detects nothing in this process.
 */
export type TestFleet = 'last-known' | 'none';

/**
 * @param plugins Kysely plugins for the app's queries only (e.g. a QueryHook); `TestApi.db`,
 * which the tests use to arrange and inspect, goes without them.
 * @param logger the app's logger (default: errors only, to stderr), e.g. one writing to a
 * stream the test reads.
 */
export async function startTestApi(overrides: Record<string, string> = {}, plugins: KyselyPlugin[] = [], fleet: TestFleet = 'last-known', logger: Logger = createLogger('error')): Promise<TestApi> {
  // Listen first, so signed URLs (built from PUBLIC_BASE_URL) point at this very server.
  const server: Server = createServer();
  answerClientErrors(server); // as src/api/server.ts does
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let config: Config;
  try {
    // A task queue of its own: a worker started by another test file never runs this file's workflows.
    // Limits far above what a suite sends, so only the rate-limit suite (which sets its own) meets them.
    // One window length for every app, the rate-limit suite's: each process deletes the counters
    // of windows it believes over, so a shorter window elsewhere would wipe that suite's counts
    // mid-test (a fleet shares RATE_LIMIT_WINDOW_SECONDS, docs/rate-limits.md#shared-by-every-api-process).
    config = testConfig({
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
      RATE_LIMIT_WINDOW_SECONDS: '3600',
      RATE_LIMIT_READS: '1000000',
      RATE_LIMIT_WRITES: '100000',
      RATE_LIMIT_AUTH_FAILURES: '1000000',
      ...overrides,
    });
  } catch (err) {
    server.close();
    throw err;
  }
  const pool = createPool({ url: config.database.url!, poolMax: 5, applicationName: 'dubbing-test', connectTimeoutMs: config.database.connectTimeoutMs });
  const db = createDb(pool);
  const temporal = createTemporalClient(config);
  if (fleet === 'last-known') await seedLastKnownWorker(db, config.temporal.taskQueue);
  const { blobStore, urlSigner, uploads, downloadLinks } = createStorage(config);
  const requests: string[] = [];
  server.on('request', (req) => requests.push(`${req.method} ${req.url?.split('?')[0]}`));
  // The same key cache as production: revocations must reach it through LISTEN/NOTIFY.
  const keyCache = new ApiKeyCache(config.database.url!, createLogger('error'));
  await keyCache.start();
  const capabilities = await startCapabilityCache(config, db, config.database.url!, createLogger('error'));
  const appDb = plugins.reduce((wrapped, plugin) => wrapped.withPlugin(plugin), db);
  const rateLimiter = rateLimiterFromConfig(config, appDb, createLogger('error'));
  const app = createApp({
    config,
    db: appDb,
    pool,
    temporal,
    capabilities,
    logger,
    blobStore,
    urlSigner,
    uploads,
    downloadLinks,
    keyCache,
    rateLimiter,
    youtube: youTubeDataApiFromConfig(config.youtube),
  });
  // Outermost, so it checks each response exactly as the client gets it (contract test 2).
  app.middleware.unshift(responseContract(app, config.storage.driver));
  server.on('request', app.callback());
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    db,
    pool,
    temporal,
    capabilities,
    blobStore,
    urlSigner,
    uploads,
    downloadLinks,
    requests,
    keyCache,
    rateLimiter,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
      await rateLimiter.close();
      await keyCache.close();
      await capabilities.close();
      await db.destroy();
      await temporal.connection.close();
    },
  };
}

/** A stopped worker with every engine this machine has: the fleet's last known capabilities. */
async function seedLastKnownWorker(db: Db, taskQueue: string): Promise<void> {
  const capabilities = await (cachedCapabilities ??= detectCapabilities());
  const workerId = `test-seed/${taskQueue}`;
  await publishWorker(db, { workerId, taskQueue, mediaTaskQueue: `${taskQueue}.media.test-seed`, capabilities, ttlSeconds: 0 });
  await retireWorker(db, workerId, taskQueue);
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** fetch + JSON, with a plain object of headers; `body` objects are sent as JSON. */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string | Buffer; redirect?: 'manual' | 'follow' } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: options.redirect ?? 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T };
}
