import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureBucket } from '../../src/storage/s3/ensure-bucket';
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
  mkdirSync(path.dirname(options.logFile), { recursive: true });
  const args = ['--port', `127.0.0.1:${options.port}`, '--region', options.region, '--quiet'];
  // Browsers PUT parts straight to the store, from the client's origin.
  args.push('--cors-allow-origin', '*');
  if (options.consolePort !== null) args.push('--webui', `127.0.0.1:${options.consolePort}`);
  args.push('posix', options.dataDir);

  const log = createWriteStream(options.logFile, { flags: 'a' });
  // The root credentials go by environment, not argv, so `ps` does not show the secret.
  const env = { ...process.env, ROOT_ACCESS_KEY_ID: options.accessKeyId, ROOT_SECRET_ACCESS_KEY: options.secretAccessKey };
  const child = spawn(options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const endpoint = `http://127.0.0.1:${options.port}`;

  let exited = false;
  child.once('exit', () => { exited = true; });
  const stop = async () => {
    if (exited) return;
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  };

  const client = adminClient(endpoint, options);
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      if (exited) throw new Error(`versitygw exited during start; see ${options.logFile}`);
      try {
        await client.send(new ListBucketsCommand({}));
        break;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`versitygw not ready after 30 s (${String(err)}); see ${options.logFile}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.destroy();
  }
  return { endpoint, consoleUrl: options.consolePort === null ? null : `http://localhost:${options.consolePort}`, process: child, stop };
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
