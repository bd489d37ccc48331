import { startCuttableProxy, type CuttableProxy } from './tcp-proxy';
import { startTestApi, type TestApi } from './test-api';
import { startTestWorker, type TestWorker } from './test-worker';

/**
 * The real app reaching the real dev server through a proxy a test can cut (Temporal
 * unreachable), with a short call deadline so the outage answers 503 fast, and, when asked, a
 * worker that reaches Temporal directly (the outage is the API's).
 */
export interface OutageStack {
  proxy: CuttableProxy;
  api: TestApi;
  worker?: TestWorker;
  close(): Promise<void>;
}

export async function startOutageStack(options: { worker: boolean; env?: Record<string, string> }): Promise<OutageStack> {
  const proxy = await startCuttableProxy(process.env.TEMPORAL_ADDRESS!);
  const api = await startTestApi({ TEMPORAL_ADDRESS: proxy.address, TEMPORAL_CALL_TIMEOUT_MS: '1500', ...options.env });
  const worker = options.worker ? await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue }) : undefined;
  return {
    proxy,
    api,
    worker,
    async close() {
      await worker?.stop();
      await api.close();
      await proxy.close();
    },
  };
}
