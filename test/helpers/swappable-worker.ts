import type { ActivityDeps } from '../../src/activities';
import { createLocalEngines, type Engines } from '../../src/engines';
import type { TestApi } from './test-api';
import { startTestWorker, type TestWorker } from './test-worker';

/**
 * One real worker at a time on the API's task queue, with some engines replaced (a broken one, a
 * gated one), and optionally other dependencies (a gated blob store). `use` swaps it, the way an
 * operator deploys a fixed worker between two steps.
 */
export type SwappableWorker = ReturnType<typeof swappableWorker>;

export function swappableWorker(api: () => TestApi) {
  let worker: TestWorker | undefined;
  return {
    /** `env`: the worker's own settings, e.g. WORKER_VOICE_SAMPLES=true to render the voices' samples. */
    async use(engines: Partial<Engines> = {}, deps: Partial<Omit<ActivityDeps, 'engines'>> = {}, env: Record<string, string> = {}): Promise<void> {
      await worker?.stop();
      worker = await startTestWorker(api().db, { taskQueue: api().config.temporal.taskQueue, env, overrides: { ...deps, engines: { ...createLocalEngines(), ...engines } } });
    },
    async stop(): Promise<void> {
      await worker?.stop();
      worker = undefined;
    },
  };
}
