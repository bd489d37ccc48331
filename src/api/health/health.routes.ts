import Router from '@koa/router';
import type { AppDeps } from '../app-deps';
import { pingDatabase } from '../../db/ping';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function check(work: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await withTimeout(work(), CHECK_TIMEOUT_MS);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * /healthz says the process is alive; /readyz says it can serve (Postgres and Temporal answer),
 * and how many live workers serve how many locales. No worker does not make the API unready: it
 * still serves reads, downloads and uploads, and creates wait for a worker against the last known
 * locales, so a load balancer must not drop it (docs/operations.md#api-readiness).
 */
export function healthRoutes({ db, temporal, capabilities, logger }: AppDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { data: { status: 'ok' } };
  });
  router.get('/readyz', async (ctx) => {
    const [postgres, temporalCheck] = await Promise.all([
      check(() => pingDatabase(db)),
      // A gRPC deadline, not just a race: the SDK stops retrying when it passes.
      check(() => temporal.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () => temporal.connection.workflowService.getSystemInfo({}))),
    ]);
    const ready = postgres.ok && temporalCheck.ok;
    const fleet = capabilities.current();
    const workers = { live: fleet.liveWorkers, locales: fleet.source === 'live_workers' ? fleet.locales.length : 0 };
    if (!ready) logger.warn('not ready', { postgres, temporal: temporalCheck });
    ctx.status = ready ? 200 : 503;
    // Only up/down reaches the caller; the reasons stay in the log.
    ctx.body = { data: { status: ready ? 'ready' : 'not_ready', checks: { postgres: postgres.ok, temporal: temporalCheck.ok }, workers } };
  });
  return router;
}
