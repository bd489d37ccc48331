import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureBucket } from '../../src/storage/s3/ensure-bucket';
import { spawnLogged } from './logged-child';
import { resolveBinary } from './resolve-binary';

// Starts versitygw, the S3-compatible server the s3 storage driver is tested and developed
// against, from the binary scripts/s3-server.sh resolves or builds. Its posix backend keeps each
// bucket as a folder and each object as a plain file under `dataDir`. Used by the jest global
// setup and by `STORAGE_DRIVER=s3 make dev`.

export function resolveS3Server(): string {
  return resolveBinary('s3-server.sh');
}

export interface S3ServerOptions {
  binary: string;
  port: number;
  /** The web console's port; null runs without it (tests). */
  consolePort: number | null;
  dataDir: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  logFile: string;
}

export interface S3Server {
  endpoint: string;
  consoleUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startS3Server(options: S3ServerOptions): Promise<S3Server> {
  mkdirSync(options.dataDir, { recursive: true });
  const args = ['--port', `127.0.0.1:${options.port}`, '--region', options.region, '--quiet'];
  // Browsers PUT parts straight to the store, from the client's origin.
  args.push('--cors-allow-origin', '*');
  if (options.consolePort !== null) args.push('--webui', `127.0.0.1:${options.consolePort}`);
  args.push('posix', options.dataDir);

  // The root credentials go by environment, not argv, so `ps` does not show the secret.
  const env = { ...process.env, ROOT_ACCESS_KEY_ID: options.accessKeyId, ROOT_SECRET_ACCESS_KEY: options.secretAccessKey };
  const server = spawnLogged(options.binary, args, { logFile: options.logFile, env });
  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = adminClient(endpoint, options);
  try {
    await server.waitUntilReady('versitygw', async () => void (await client.send(new ListBucketsCommand({}))), { timeoutMs: 30_000, intervalMs: 200 });
  } finally {
    client.destroy();
  }
  return { endpoint, consoleUrl: options.consolePort === null ? null : `http://localhost:${options.consolePort}`, process: server.process, stop: server.stop };
}

/** Creates the bucket unless it exists. */
export async function createBucket(endpoint: string, credentials: Pick<S3ServerOptions, 'accessKeyId' | 'secretAccessKey' | 'region'>, bucket: string): Promise<void> {
  const client = adminClient(endpoint, credentials);
  try {
    await ensureBucket(client, bucket);
  } finally {
    client.destroy();
  }
}

function adminClient(endpoint: string, options: Pick<S3ServerOptions, 'accessKeyId' | 'secretAccessKey' | 'region'>): S3Client {
  return new S3Client({
    endpoint,
    region: options.region,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    maxAttempts: 1,
  });
}
