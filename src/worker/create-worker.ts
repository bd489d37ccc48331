import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import type { Config } from '../config';
import type { Db } from '../db/create-db';
import { loadFleet } from '../db/worker-capabilities';
import { derivedMediaPool } from '../fleet/media-pool';
import type { Logger } from '../logger';
import { mediaTaskQueue } from '../shared/task-queues';
import { CapabilityPublisher } from './capability-publisher';
import { renderVoiceSamples, type VoiceSampleOutcome } from './voice-samples';
import { activityMetricsInterceptor } from '../metrics/activity-metrics';
import { activityCancellationInterceptor, stopsWritingWhenCancelled } from './activity-cancellation';
import { activityTracingInterceptor, workflowSpanSinks } from '../tracing/temporal-worker-tracing';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from './workflow-bundle';

export interface WorkerOptions {
  config: Config;
  connection: NativeConnection;
  db: Db;
  deps: ActivityDeps;
  logger: Logger;
  /** Overrides config.temporal.taskQueue; tests use a fresh queue per file. */
  taskQueue?: string;
}

/** One worker process: a Temporal worker per role, and its published capabilities. */
export interface FleetWorker {
  /** Also its Temporal identity, so a history's "started by" names this record. */
  workerId: string;
  taskQueue: string;
  mediaTaskQueue: string | null;
  workers: Worker[];
  /** Runs until shutdown (SIGINT/SIGTERM or shutdown()), then retires the published capabilities. */
  run(): Promise<void>;
  shutdown(): void;
  /** The voice samples' rendering (null when this worker renders none), settled once done. */
  voiceSamples: Promise<VoiceSampleOutcome | null>;
}

/**
 * Builds the process's workers by role (WORKER_ROLES): `workflows` polls the base queue for
 * workflow tasks and the short database steps; `media` polls its pool's media queue, running at
 * most MEDIA_CONCURRENCY media steps at once. `make dev` runs both in one process.
 */
export async function createFleetWorker({ config, connection, db, deps, logger, taskQueue: queueOverride }: WorkerOptions): Promise<FleetWorker> {
  const taskQueue = queueOverride ?? config.temporal.taskQueue;
  const roles = new Set(config.worker.roles);
  const workerId = `${process.pid}@${os.hostname()}/${randomUUID().slice(0, 8)}`;
  const activities = createActivities({ ...deps, blobStore: stopsWritingWhenCancelled(deps.blobStore) });
  // Tracing outermost, so an activity's RunActivity span also covers its metrics; the sink takes
  // the workflow sandbox's spans (both inert while the process does not trace).
  const common = {
    connection,
    namespace: config.temporal.namespace,
    identity: workerId,
    activities,
    interceptors: { activity: [activityTracingInterceptor, activityMetricsInterceptor, activityCancellationInterceptor] },
    sinks: workflowSpanSinks(),
    // A heartbeat is sent at most this often (by default 80 % of the heartbeat timeout, 24 s):
    // its answer is how a cancelled activity learns it, so a cancel stops a media step within
    // seconds and the workflow waiting for it settles (src/worker/activity-cancellation.ts).
    maxHeartbeatThrottleInterval: '2 seconds',
  };
  const workers: Worker[] = [];

  if (roles.has('workflows')) {
    // A pre-built bundle (tests, images) skips webpack at start and already holds the workflow
    // interceptors (src/worker/workflow-bundle.ts); otherwise bundle from source with them.
    const workflowSource = config.temporal.workflowBundlePath
      ? { workflowBundle: { codePath: config.temporal.workflowBundlePath } }
      : { workflowsPath: WORKFLOWS_PATH, interceptors: { ...common.interceptors, workflowModules: [...WORKFLOW_INTERCEPTOR_MODULES] } };
    workers.push(await Worker.create({ ...common, taskQueue, ...workflowSource }));
  }

  let media: string | null = null;
  if (roles.has('media')) {
    const pool = config.worker.mediaPool ?? derivedMediaPool(deps.capabilities);
    media = mediaTaskQueue(taskQueue, pool);
    await refuseMixedPool(db, taskQueue, media, deps);
    // Activities only (no workflow code): this worker never sees a workflow task.
    workers.push(await Worker.create({ ...common, taskQueue: media, maxConcurrentActivityTaskExecutions: config.worker.mediaConcurrency }));
  }

  // Published once the workers exist, so whoever sees the record (the API, a workflow routing its
  // media steps) finds a worker about to poll; queued tasks wait the moment until it does.
  const publisher = new CapabilityPublisher(
    db,
    { workerId, taskQueue, mediaTaskQueue: media, capabilities: media ? deps.capabilities : { locales: [], missing: [] } },
    config.worker.heartbeatSeconds,
    logger,
  );
  await publisher.start();
  // Behind the workers: the samples are for people choosing a voice, and dubbing goes first.
  const stopSamples = new AbortController();
  const samples =
    media && config.worker.voiceSamples ? renderVoiceSamples({ blobStore: deps.blobStore, tts: deps.engines.tts, capabilities: deps.capabilities }, logger, stopSamples.signal) : Promise.resolve(null);
  return {
    workerId,
    taskQueue,
    mediaTaskQueue: media,
    workers,
    async run() {
      try {
        await Promise.all(workers.map((worker) => worker.run()));
      } finally {
        stopSamples.abort();
        await samples;
        await publisher.stop();
      }
    },
    voiceSamples: samples,
    shutdown() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}

/**
 * A pool is one engine set: routing sends a locale to any worker of the pool, so a worker named
 * into a pool (MEDIA_POOL) whose live members serve something else must not start.
 */
async function refuseMixedPool(db: Db, taskQueue: string, media: string, deps: ActivityDeps): Promise<void> {
  const mine = derivedMediaPool(deps.capabilities);
  const { rows } = await loadFleet(db, taskQueue);
  const other = rows.find((row) => row.live && row.mediaTaskQueue === media && derivedMediaPool(row.capabilities) !== mine);
  if (other) throw new Error(`media queue ${media} is served by worker ${other.workerId} with a different engine set; give this worker its own MEDIA_POOL`);
}
