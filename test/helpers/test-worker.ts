import { randomUUID } from 'node:crypto';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { ActivityDeps } from '../../src/activities';
import type { Db } from '../../src/db/create-db';
import { createLogger } from '../../src/logger';
import { createActivityDeps } from '../../src/worker/activity-deps';
import { createFleetWorker } from '../../src/worker/create-worker';
import { installTemporalRuntime } from '../../src/worker/runtime';
import { temporalConnectionOptions } from '../../src/temporal/connection';
import { testConfig } from './test-api';

export interface TestWorker {
  taskQueue: string;
  /** The media queue it polls (its engines' pool). */
  mediaTaskQueue: string | null;
  workerId: string;
  /** The workflow worker first, then the media worker. */
  worker: Worker;
  stop(): Promise<void>;
}

/**
 * A real worker on the run's dev server, on a fresh task queue so test files stay apart: both
 * roles in one process, as `make dev` runs it, its capabilities published like a real worker's.
 */
export async function startTestWorker(db: Db, options: { taskQueue?: string; overrides?: Partial<ActivityDeps>; env?: Record<string, string> } = {}): Promise<TestWorker> {
  installTemporalRuntime('warn');
  const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
  const config = testConfig({ ...options.env, TEMPORAL_TASK_QUEUE: taskQueue });
  const deps = { ...(await createActivityDeps(config, db)), ...options.overrides };
  const connection = await NativeConnection.connect(temporalConnectionOptions(config));
  const fleetWorker = await createFleetWorker({ config, connection, db, deps, logger: createLogger('error') });
  const running = fleetWorker.run();
  return {
    taskQueue,
    mediaTaskQueue: fleetWorker.mediaTaskQueue,
    workerId: fleetWorker.workerId,
    worker: fleetWorker.workers[0]!,
    async stop() {
      fleetWorker.shutdown();
      await running;
      await connection.close();
      await deps.temporal.connection.close();
    },
  };
}
