// "Can a project be dubbed now?", from the outside, as `make dev` asks before it prints its
// banner: the API is ready and offers locales from a live worker (so a create is not refused for
// an unknown locale), and the worker is ready (it polls its task queues and its record is live).
// An API that answers /healthz, or even /readyz, before the worker has bundled its workflows and
// published its engines would list 0 locales and refuse every create with 400.

export type Dubbable = { dubbable: true; locales: number } | { dubbable: false; waitingFor: string };

const TIMEOUT_MS = 3000;

async function getJson(url: string): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return null; // not listening yet, or no answer in time
  }
}

/** One look at the API's /readyz and the worker's health endpoint (its base URL, e.g. http://127.0.0.1:8081). */
export async function dubbableNow(apiUrl: string, workerHealthUrl: string): Promise<Dubbable> {
  const [api, worker] = await Promise.all([getJson(`${apiUrl}/readyz`), getJson(`${workerHealthUrl}/readyz`)]);
  if (!worker) return { dubbable: false, waitingFor: 'the worker to start' };
  if (worker.status !== 200) return { dubbable: false, waitingFor: `the worker to be ready (${worker.body?.reason ?? `HTTP ${worker.status}`})` };
  if (!api) return { dubbable: false, waitingFor: 'the API to start' };
  if (api.status !== 200) return { dubbable: false, waitingFor: 'the API to be ready (PostgreSQL and Temporal)' };
  const locales = Number(api.body?.data?.workers?.locales ?? 0);
  if (!(Number(api.body?.data?.workers?.live ?? 0) > 0) || !(locales > 0)) return { dubbable: false, waitingFor: 'the API to hear of a live worker serving locales' };
  return { dubbable: true, locales };
}

/**
 * Resolves once dubbableNow() says so, with the number of locales offered; throws after
 * `timeoutMs` naming what it still waited for. `onWaiting` hears each new thing waited for.
 */
export async function waitUntilDubbable(apiUrl: string, workerHealthUrl: string, options: { timeoutMs: number; intervalMs?: number; onWaiting?: (what: string) => void }): Promise<number> {
  const deadline = Date.now() + options.timeoutMs;
  let told = '';
  for (;;) {
    const state = await dubbableNow(apiUrl, workerHealthUrl);
    if (state.dubbable) return state.locales;
    if (state.waitingFor !== told) options.onWaiting?.((told = state.waitingFor));
    if (Date.now() > deadline) throw new Error(`not dubbable after ${options.timeoutMs / 1000} s: still waiting for ${state.waitingFor}`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 300));
  }
}
