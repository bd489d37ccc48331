import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../config';
import { createDb } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { createLogger } from '../logger';
import { createActivityDeps } from './activity-deps';
import { createWorker } from './create-worker';
import { ensureReconcilerSchedule } from '../temporal/ensure-reconciler-schedule';
import { ensureUploadExpirySchedule } from '../temporal/ensure-upload-expiry-schedule';
import { installTemporalRuntime } from './runtime';

async function connectWithRetry(address: string, log: (m: string) => void): Promise<NativeConnection> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await NativeConnection.connect({ address });
    } catch (err) {
      if (attempt >= 30) throw err;
      log(`temporal not reachable at ${address} (attempt ${attempt}); retrying`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { service: 'worker' });
  installTemporalRuntime(config.logLevel);
  const db = createDb({ url: databaseUrl(config), poolMax: config.database.poolMax, applicationName: 'dubbing-worker' });
  const connection = await connectWithRetry(config.temporal.address, (m) => logger.warn(m));
  const deps = await createActivityDeps(config, db);
  const worker = await createWorker({ config, connection, deps });
  await ensureUploadExpirySchedule(deps.temporal, config.temporal.taskQueue);
  await ensureReconcilerSchedule(deps.temporal, config.temporal.taskQueue);
  logger.info('worker running', { taskQueue: config.temporal.taskQueue, address: config.temporal.address });
  // Worker.run resolves after SIGINT/SIGTERM, once in-flight tasks are done or handed back.
  await worker.run();
  await deps.temporal.connection.close();
  await connection.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
