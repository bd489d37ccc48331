import { NativeConnection } from '@temporalio/worker';
import { loadConfig, type Config } from '../config';
import { createDb } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { isWorkerLive } from '../db/worker-capabilities';
import { createLogger } from '../logger';
import { createActivityDeps } from './activity-deps';
import { createFleetWorker } from './create-worker';
import { ensureReconcilerSchedule } from '../temporal/ensure-reconciler-schedule';
import { ensureUploadExpirySchedule } from '../temporal/ensure-upload-expiry-schedule';
import { temporalConnectionOptions } from '../temporal/connection';
import { installTemporalRuntime } from './runtime';
import { freePort } from '../net/free-port';
import { startMetricsServer } from '../metrics/metrics-server';
import { startTracing } from '../tracing/otlp-tracing';
import { startWorkerHealthServer } from './health-server';

async function connectWithRetry(config: Config, log: (m: string) => void): Promise<NativeConnection> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await NativeConnection.connect(temporalConnectionOptions(config));
    } catch (err) {
      if (attempt >= 30) throw err;
      log(`temporal not reachable at ${config.temporal.address} (attempt ${attempt}); retrying`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { service: 'worker' }, undefined, config.logFormat);
  // Before the workers: activity spans and the workflow span sink use what is installed.
  const tracing = startTracing(config, 'dubbing-worker');
  if (tracing) logger.info('tracing', { otlpTracesUrl: config.tracing.otlpTracesUrl });
  // With METRICS_PORT set, the SDK core serves its metrics on a loopback port of its own, and
  // this process's /metrics appends them: one scrape target per worker.
  const coreMetricsPort = config.metrics.port !== null ? await freePort() : null;
  installTemporalRuntime(logger, { metricsBindAddress: coreMetricsPort ? `127.0.0.1:${coreMetricsPort}` : undefined });
  const metrics =
    config.metrics.port !== null
      ? await startMetricsServer({ host: config.metrics.host, port: config.metrics.port, service: 'worker', logger, alsoFrom: [`http://127.0.0.1:${coreMetricsPort}/metrics`] })
      : undefined;
  if (metrics) logger.info('metrics listening', { url: metrics.url });
  // Up before the slow start (Temporal, engine probes, the workflow bundle): /livez answers at
  // once, /readyz says "starting" until the workers poll and their engines are published.
  const health = config.worker.healthPort !== null ? await startWorkerHealthServer({ host: config.worker.healthHost, port: config.worker.healthPort, logger }) : undefined;
  if (health) logger.info('health listening', { livez: `${health.url}/livez`, readyz: `${health.url}/readyz` });
  const db = createDb({ url: databaseUrl(config), poolMax: config.database.poolMax, connectTimeoutMs: config.database.connectTimeoutMs, applicationName: 'dubbing-worker' });
  const connection = await connectWithRetry(config, (m) => logger.warn(m));
  const deps = await createActivityDeps(config, db);
  if (deps.capabilities.missing.length > 0) logger.warn('engines missing; their locales are not offered', { missing: deps.capabilities.missing });
  const worker = await createFleetWorker({ config, connection, db, deps, logger });
  health?.watch({ connection, workers: worker.workers, published: () => isWorkerLive(db, worker.workerId) });
  // The schedules start workflows on the base queue: whoever polls it creates them.
  if (config.worker.roles.includes('workflows')) {
    await ensureUploadExpirySchedule(deps.temporal, config.temporal.taskQueue);
    await ensureReconcilerSchedule(deps.temporal, config.temporal.taskQueue);
  }
  logger.info('worker running', {
    workerId: worker.workerId,
    roles: config.worker.roles,
    taskQueue: config.worker.roles.includes('workflows') ? worker.taskQueue : null,
    mediaTaskQueue: worker.mediaTaskQueue,
    mediaConcurrency: worker.mediaTaskQueue ? config.worker.mediaConcurrency : null,
    locales: deps.capabilities.locales.map((l) => l.locale),
    address: config.temporal.address,
    namespace: config.temporal.namespace,
  });
  // run() resolves after SIGINT/SIGTERM, once in-flight tasks are done or handed back.
  await worker.run();
  await deps.temporal.connection.close();
  await connection.close();
  await db.destroy();
  await metrics?.close();
  await health?.close();
  await tracing?.shutdown().catch(() => undefined); // sends the last batch of spans
  logger.info('worker stopped');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
