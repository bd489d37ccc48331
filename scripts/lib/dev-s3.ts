import path from 'node:path';
import type { Config } from '../../src/config';
import { ensureBucket } from '../../src/storage/s3/ensure-bucket';
import { createS3Clients } from '../../src/storage/s3/s3-clients';
import { isPortOpen } from './free-port';
import { resolveS3Server, startS3Server, type S3Server } from './s3-server';

// `STORAGE_DRIVER=s3 make dev`: the s3 driver on a local versitygw, with nothing else to set.
// Any S3_* variable you set wins; an endpoint that already answers is used as it is.

type Env = Record<string, string | undefined>;

const DEV_S3 = {
  S3_ENDPOINT: 'http://127.0.0.1:7070',
  S3_BUCKET: 'dubbing-dev',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'dubbing-dev',
  S3_SECRET_ACCESS_KEY: 'dubbing-dev-secret-not-for-production',
  S3_FORCE_PATH_STYLE: 'true',
  // S3 refuses smaller multipart parts (the local driver's default is 8 MiB already).
  UPLOAD_PART_SIZE_BYTES: String(8 * 1024 * 1024),
};
const DEV_CONSOLE_PORT = 7071;

/** The environment `make dev` runs with: on the s3 driver, the dev server's settings filled in. */
export function withDevS3Defaults(env: Env): Env {
  if (env.STORAGE_DRIVER !== 's3') return env;
  const filled: Env = { ...env };
  for (const [name, value] of Object.entries(DEV_S3)) if (!filled[name]) filled[name] = value;
  return filled;
}

/** Starts versitygw (data in .dev/s3) unless the endpoint already answers, then makes the bucket. */
export async function ensureDevS3(config: Config, devDir: string, step: (message: string) => void): Promise<{ server: S3Server | null; consoleUrl: string | null }> {
  const settings = config.storage.s3!;
  const endpoint = new URL(settings.endpoint ?? DEV_S3.S3_ENDPOINT);
  const port = Number(endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80));
  let server: S3Server | null = null;
  if (await isPortOpen(port, endpoint.hostname)) {
    step(`an S3 endpoint already answers on ${endpoint.origin}; using it`);
  } else if (!['127.0.0.1', 'localhost'].includes(endpoint.hostname) || !settings.credentials) {
    throw new Error(`S3_ENDPOINT ${endpoint.origin} does not answer, and make dev only starts a server on this machine (with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY set)`);
  } else {
    step('starting versitygw (S3-compatible server)...');
    server = await startS3Server({
      binary: resolveS3Server(),
      port,
      consolePort: DEV_CONSOLE_PORT,
      dataDir: path.join(devDir, 's3'),
      accessKeyId: settings.credentials.accessKeyId,
      secretAccessKey: settings.credentials.secretAccessKey,
      region: settings.region,
      logFile: path.join(devDir, 's3.log'),
    });
  }
  const { client, bucket } = createS3Clients(settings);
  try {
    step(`bucket ${bucket}: ${await ensureBucket(client, bucket)}`);
  } finally {
    client.destroy();
  }
  return { server, consoleUrl: server?.consoleUrl ?? null };
}
