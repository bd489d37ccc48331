import type { DevServer } from '../../scripts/lib/temporal-dev-server';

/** Shared between global setup and teardown, which jest runs in the same parent process. */
export const testState: {
  temporal?: DevServer;
  database?: { name: string; adminUrl: string; url: string };
} = ((globalThis as any).__dubbingTestState ??= {});
