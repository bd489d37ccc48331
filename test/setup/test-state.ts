import type { S3Server } from '../../scripts/lib/s3-server';
import type { DevServer } from '../../scripts/lib/temporal-dev-server';

/** Shared between global setup and teardown, which jest runs in the same parent process. */
export const testState: {
  temporal?: DevServer;
  database?: { name: string; adminUrl: string; url: string };
  s3?: { server: S3Server; dataDir: string };
} = ((globalThis as any).__dubbingTestState ??= {});
