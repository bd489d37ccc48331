import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from '../logger';

// The worker's health endpoint (WORKER_HEALTH_PORT), for docker-compose's healthcheck and
// Kubernetes probes (docs/operations.md#worker-health):
//   GET /livez   200 while the process answers at all (a liveness probe: restart when it does not)
//   GET /readyz  200 once it is connected to Temporal and every one of its workers is polling;
//                503 with the reason before that, after a lost connection, and while it drains.
// The worker serves no traffic, so readiness gates rollouts, not requests: a new pod counts as
// up only when it really takes tasks.

export interface WorkerHealthServer {
  url: string;
  /** Called once the workers exist; until then /readyz answers 503 "starting". */
  watch(target: { connection: NativeConnection; workers: readonly Worker[] }): void;
  close(): Promise<void>;
}

export interface Readiness {
  ready: boolean;
  reason?: string;
  workers?: { taskQueue: string; state: string }[];
}

/** How long /readyz waits for Temporal before calling the worker unready. */
const TEMPORAL_CHECK_TIMEOUT_MS = 2000;

export async function startWorkerHealthServer(options: { host: string; port: number; logger: Logger }): Promise<WorkerHealthServer> {
  let target: { connection: NativeConnection; workers: readonly Worker[] } | null = null;
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

/** Ready: every worker RUNNING with no failed poller, and Temporal answering within the timeout. */
export async function readiness(target: { connection: NativeConnection; workers: readonly Worker[] } | null): Promise<Readiness> {
  if (!target) return { ready: false, reason: 'starting' };
  const workers = target.workers.map((worker) => {
    const status = worker.getStatus();
    const failedPoller = status.workflowPollerState === 'FAILED' || status.activityPollerState === 'FAILED';
    return { taskQueue: worker.options.taskQueue, state: failedPoller ? 'POLLER_FAILED' : status.runState };
  });
  const notPolling = workers.find((worker) => worker.state !== 'RUNNING');
  if (notPolling) return { ready: false, reason: `worker on ${notPolling.taskQueue} is ${notPolling.state}`, workers };
  try {
    await target.connection.withDeadline(Date.now() + TEMPORAL_CHECK_TIMEOUT_MS, () => target.connection.workflowService.getSystemInfo({}));
  } catch (err) {
    return { ready: false, reason: `Temporal not reachable: ${err instanceof Error ? err.message : String(err)}`, workers };
  }
  return { ready: true, workers };
}
