import { randomUUID } from 'node:crypto';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { ActivityDeps } from '../../src/activities';
import type { Db } from '../../src/db/create-db';
import { createActivityDeps } from '../../src/worker/activity-deps';
import { createWorker } from '../../src/worker/create-worker';
import { installTemporalRuntime } from '../../src/worker/runtime';
import { testConfig } from './test-api';

export interface TestWorker {
  taskQueue: string;
  worker: Worker;
  stop(): Promise<void>;
}

/** A real worker on the run's dev server, on a fresh task queue so test files stay apart. */
export async function startTestWorker(
  db: Db,
  options: { taskQueue?: string; overrides?: Partial<ActivityDeps>; config?: Record<string, string> } = {},
): Promise<TestWorker> {
  installTemporalRuntime('warn');
  const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
  const config = testConfig({ ...options.config, TEMPORAL_TASK_QUEUE: taskQueue });
  const deps = { ...(await createActivityDeps(config, db)), ...options.overrides };
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await createWorker({ config, connection, deps });
  const running = worker.run();
  return {
    taskQueue,
    worker,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
      await deps.temporal.connection.close();
    },
  };
}
