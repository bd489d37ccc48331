import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from '../logger';

// The worker's health endpoint (WORKER_HEALTH_PORT), for docker-compose's healthcheck and
// Kubernetes probes (docs/operations.md#worker-health):
//   GET /livez   200 while the process answers at all (a liveness probe: restart when it does not)
//   GET /readyz  200 once it is connected to Temporal, every one of its workers is polling and
//                its engines are published (its worker_capabilities record is live, so the API
//                offers its locales); 503 with the reason before that, after a lost connection,
//                once its heartbeats have lapsed, and while it drains.
// The worker serves no traffic, so readiness gates rollouts, not requests: a new pod counts as
// up only when it really takes tasks and the API routes work to it.

/** What readiness looks at, once the workers exist. */
export interface ReadinessTarget {
  connection: NativeConnection;
  workers: readonly Worker[];
  /** Whether this worker's published record is live now, as the API judges it (the database's clock). */
  published(): Promise<boolean>;
}

export interface WorkerHealthServer {
  url: string;
  /** Called once the workers exist; until then /readyz answers 503 "starting". */
  watch(target: ReadinessTarget): void;
  close(): Promise<void>;
}

export interface Readiness {
  ready: boolean;
  reason?: string;
  workers?: { taskQueue: string; state: string }[];
}

/** How long /readyz waits for Temporal, and for PostgreSQL, before calling the worker unready. */
const CHECK_TIMEOUT_MS = 2000;

export async function startWorkerHealthServer(options: { host: string; port: number; logger: Logger }): Promise<WorkerHealthServer> {
  let target: ReadinessTarget | null = null;
  const server: Server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method !== 'GET' || (path !== '/livez' && path !== '/readyz')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (path === '/livez') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}\n');
      return;
    }
    void readiness(target).then((result) => {
      if (!result.ready) options.logger.debug('worker not ready', { reason: result.reason });
      const body = { status: result.ready ? 'ready' : 'unready', reason: result.reason, workers: result.workers };
      res.writeHead(result.ready ? 200 : 503, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    watch: (watched) => {
      target = watched;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Ready: every worker RUNNING with no failed poller, Temporal answering within the timeout, and
 * this worker's record live in PostgreSQL. The record is published before the workers run, so it
 * only fails after start when heartbeats have not reached the database for three beats: the API
 * then no longer offers this worker's locales, and a worker nobody sends work to is not ready.
 */
export async function readiness(target: ReadinessTarget | null): Promise<Readiness> {
  if (!target) return { ready: false, reason: 'starting' };
  const workers = target.workers.map((worker) => {
    const status = worker.getStatus();
    const failedPoller = status.workflowPollerState === 'FAILED' || status.activityPollerState === 'FAILED';
    return { taskQueue: worker.options.taskQueue, state: failedPoller ? 'POLLER_FAILED' : status.runState };
  });
  const notPolling = workers.find((worker) => worker.state !== 'RUNNING');
  if (notPolling) return { ready: false, reason: `worker on ${notPolling.taskQueue} is ${notPolling.state}`, workers };
  // Both at once, so a probe waits at most one timeout.
  const [temporal, published] = await Promise.allSettled([
    target.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () => target.connection.workflowService.getSystemInfo({})),
    withTimeout(target.published(), CHECK_TIMEOUT_MS),
  ]);
  if (temporal.status === 'rejected') return { ready: false, reason: `Temporal not reachable: ${messageOf(temporal.reason)}`, workers };
  if (published.status === 'rejected') return { ready: false, reason: `capabilities not readable: ${messageOf(published.reason)}`, workers };
  if (!published.value) return { ready: false, reason: 'capabilities not published: no live worker_capabilities record', workers };
  return { ready: true, workers };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
