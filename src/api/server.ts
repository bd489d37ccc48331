import type { Server } from 'node:http';
import { loadConfig } from '../config';
import { createDb, createPool } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { startCapabilityCache } from '../fleet/capability-cache';
import { createLogger } from '../logger';
import { createStorage } from '../storage/create-storage';
import { createTemporalClient } from '../temporal/connection';
import { ApiKeyCache } from '../auth/api-key-cache';
import { youTubeDataApiFromConfig } from '../sources/youtube/data-api-client';
import { createApp } from './app';
import { answerClientErrors } from './client-errors';
import { startMetricsServer } from '../metrics/metrics-server';
import { registerStatusGauges } from '../metrics/status-gauges';
import { rateLimiterFromConfig } from './rate-limit/rate-limiter';
import { startTracing } from '../tracing/otlp-tracing';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { service: 'api' }, undefined, config.logFormat);
  // Before anything makes spans: the Temporal client's interceptor and the request middleware.
  const tracing = startTracing(config, 'dubbing-api');
  if (tracing) logger.info('tracing', { otlpTracesUrl: config.tracing.otlpTracesUrl });
  const pool = createPool({ url: databaseUrl(config), poolMax: config.database.poolMax, connectTimeoutMs: config.database.connectTimeoutMs, applicationName: 'dubbing-api' });
  const db = createDb(pool);
  const temporal = createTemporalClient(config);
  // The API runs no engine: what can be dubbed is what the live workers published.
  const capabilities = await startCapabilityCache(config, db, databaseUrl(config), logger);
  if (capabilities.current().source !== 'live_workers') logger.warn('no live worker has published its engines yet', { source: capabilities.current().source });

  const { blobStore, urlSigner, uploads, downloadLinks } = createStorage(config);
  const keyCache = new ApiKeyCache(databaseUrl(config), logger);
  await keyCache.start();
  const rateLimiter = rateLimiterFromConfig(config, db, logger);
  const app = createApp({ config, db, pool, temporal, capabilities, logger, blobStore, urlSigner, uploads, downloadLinks, keyCache, rateLimiter, youtube: youTubeDataApiFromConfig(config.youtube) });
  const server: Server = app.listen(config.http.port, config.http.host, () => {
    logger.info('api listening', { url: `http://${config.http.host}:${config.http.port}`, publicBaseUrl: config.http.publicBaseUrl });
  });
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000; // longer than common load balancer idle timeouts
  let metrics: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  if (config.metrics.port !== null) {
    registerStatusGauges(db);
    metrics = await startMetricsServer({ host: config.metrics.host, port: config.metrics.port, service: 'api', logger });
    logger.info('metrics listening', { url: metrics.url });
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    // Stop accepting, let in-flight requests finish, then close pools; force-exit if stuck.
    const force = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.http.shutdownTimeoutMs);
    force.unref();
    // Node 20's close() also drops idle keep-alive sockets; active ones finish their request.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rateLimiter.close().catch(() => undefined);
    await metrics?.close();
    await Promise.allSettled([keyCache.close(), capabilities.close(), db.destroy(), temporal.connection.close()]);
    await tracing?.shutdown().catch(() => undefined); // sends the last batch of spans
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
