import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import type { Config } from '../config';

export interface WorkerOptions {
  config: Config;
  connection: NativeConnection;
  deps: ActivityDeps;
  /** Overrides config.temporal.taskQueue; tests use a fresh queue per file. */
  taskQueue?: string;
}

export async function createWorker({ config, connection, deps, taskQueue }: WorkerOptions): Promise<Worker> {
  // A pre-built bundle (tests, images) skips webpack at start; otherwise bundle from source.
  const workflowSource = config.temporal.workflowBundlePath
    ? { workflowBundle: { codePath: config.temporal.workflowBundlePath } }
    : { workflowsPath: require.resolve('../workflows') };
  return Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: taskQueue ?? config.temporal.taskQueue,
    activities: createActivities(deps),
    ...workflowSource,
  });
}
