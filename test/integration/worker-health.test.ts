import { freePort } from '../../scripts/lib/free-port';
import { waitFor } from '../helpers/wait-for';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// The worker's health endpoint (src/worker/health-server.ts) before it polls: a worker process
// whose Temporal does not answer is alive (/livez 200, a liveness probe leaves it be) but not
// ready (/readyz 503 with the reason). Ready once polling: test/e2e/compiled-build.test.ts.

let worker: WorkerProcess | undefined;

afterAll(async () => {
  await worker?.stop();
});

it('is live at once and unready, saying why, while Temporal does not answer', async () => {
  const [healthPort, nobodyListens] = [await freePort(), await freePort()];
  worker = startWorkerProcess({ TEMPORAL_ADDRESS: `127.0.0.1:${nobodyListens}`, WORKER_HEALTH_PORT: String(healthPort) });
  const base = `http://127.0.0.1:${healthPort}`;
  const live = await waitFor('the worker serves /livez', async () => (await fetch(`${base}/livez`).catch(() => null)) ?? undefined, 60_000, 250);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });

  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: 'unready', reason: 'starting' });
  expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(404);
}, 90_000);
