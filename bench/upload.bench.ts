import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { freePort } from '../scripts/lib/free-port';
import { createBucket, resolveS3Server, startS3Server } from '../scripts/lib/s3-server';
import { issueApiKey } from '../src/auth/issue-api-key';
import { createDb } from '../src/db/create-db';
import { grantCredits } from '../src/db/credits';
import { insertWorkspace } from '../src/db/workspaces';
import { numberFlag } from './lib/args';
import {
  codeVersion,
  createBenchDatabase,
  log,
  onCleanup,
  ROOT,
  runBenchmark,
  scratchDir,
  seedLastKnownFleet,
  serviceEnv,
  startBenchTemporal,
  startNodeService,
  type ChildService,
} from './lib/services';
import { fmt, formatTable } from './lib/stats';

// `npm run bench:upload [-- --mib 1024 --concurrency 4 --part-mib 8]`: one source of --mib MiB
// uploaded through each storage driver as a client would (create, PUT every part to its
// transfer URL, --concurrency at a time, complete), then the worker's storage step for it (join
// the parts, stream the source into a temp dir). Reported per driver: upload throughput against a
// bare `aws s3 cp`-style SDK upload (lib-storage, same part size and concurrency) of the same file
// to the same S3 server in the same run, and how much the API's and the worker step's RSS grew.
// Goals: throughput ≥ 0.8× the bare upload; RSS growth flat, under 64 MiB, whatever the size.

const MiB = 1024 * 1024;
const execFileAsync = promisify(execFile);

interface S3Target {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A file of random bytes (incompressible, like media), written in 4 MiB chunks. */
async function writeRandomFile(file: string, bytes: number): Promise<void> {
  async function* chunks() {
    for (let left = bytes; left > 0; left -= 4 * MiB) yield randomBytes(Math.min(4 * MiB, left));
  }
  await pipeline(chunks(), createWriteStream(file));
}

/** Resident memory of one process now, MiB. */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The bare baseline: what `aws s3 cp` does, lib-storage's managed multipart upload. */
async function bareUpload(target: S3Target, file: string, partBytes: number, concurrency: number): Promise<number> {
  const client = new S3Client({
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: true,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    const started = Date.now();
    await new Upload({ client, params: { Bucket: target.bucket, Key: `bare/${Date.now()}`, Body: createReadStream(file) }, partSize: partBytes, queueSize: concurrency }).done();
    return Date.now() - started;
  } finally {
    client.destroy();
  }
}

/** PUTs bytes [start, end) of the file to a part URL, streaming, as a client would. */
function putRange(url: string, file: string, start: number, end: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-length': String(end - start) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(String(res.headers.etag ?? '').replace(/"/g, '')) : reject(new Error(`part PUT answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    pipeline(createReadStream(file, { start, end: end - 1 }), req).catch(reject);
  });
}

/** Create, every part (`concurrency` at a time), complete. Returns the project id. */
async function uploadThroughApi(api: ChildService, key: string, file: string, size: number, concurrency: number): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${api.baseUrl}/v1/dubbing/projects`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomBytes(8).toString('hex') },
    body: JSON.stringify({ name: 'Upload bench', source_locale: 'en_us', target_locales: ['es_es'], max_billable_seconds: 60, source: { type: 'upload', file_name: 'bench.mp4', size_bytes: size } }),
  });
  const project = ((await created.json()) as { data: { id: string; transfer: { part_size_bytes: number; parts: { part_number: number; url: string }[] } } }).data;
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(project)}`);
  const { part_size_bytes: partSize, parts } = project.transfer;
  const etags = new Array<string>(parts.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < parts.length) {
        const part = parts[next++]!;
        const start = (part.part_number - 1) * partSize;
        etags[part.part_number - 1] = await putRange(part.url, file, start, Math.min(size, start + partSize));
      }
    }),
  );
  const completed = await fetch(`${api.baseUrl}/v1/dubbing/projects/${project.id}/upload/complete`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ parts: parts.map((p) => ({ part_number: p.part_number, etag: etags[p.part_number - 1] })) }),
  });
  if (completed.status !== 200) throw new Error(`complete answered ${completed.status}: ${await completed.text()}`);
  return project.id;
}

runBenchmark(async () => {
  const argv = process.argv.slice(2);
  const mib = numberFlag(argv, 'mib', 1024, 16, 64 * 1024);
  const concurrency = numberFlag(argv, 'concurrency', 4, 1, 32);
  const partMiB = numberFlag(argv, 'part-mib', 8, 5, 512);
  const size = mib * MiB;
  const dir = scratchDir('upload');
  log(`code: ${codeVersion()}`);
  log(`writing a ${mib} MiB source...`);
  const source = path.join(dir, 'source.bin');
  await writeRandomFile(source, size);
  const warmFile = path.join(dir, 'warm.bin');
  await writeRandomFile(warmFile, 2 * partMiB * MiB);

  const database = await createBenchDatabase('upload');
  const temporal = await startBenchTemporal(dir);
  const s3Port = await freePort();
  const target: S3Target = { endpoint: '', bucket: 'bench', region: 'us-east-1', accessKeyId: 'bench', secretAccessKey: randomBytes(16).toString('hex') };
  const s3 = await startS3Server({ binary: resolveS3Server(), port: s3Port, consolePort: null, dataDir: path.join(dir, 's3-data'), logFile: path.join(dir, 's3.log'), ...target });
  onCleanup('stop versitygw', () => s3.stop());
  target.endpoint = s3.endpoint;
  await createBucket(s3.endpoint, target, target.bucket);

  const db = createDb({ url: database.url, poolMax: 2, applicationName: 'bench-upload' });
  onCleanup('close bench db', () => db.destroy());
  const workspace = await db.transaction().execute((trx) => insertWorkspace(trx, { name: 'Upload bench', kind: 'team', owner_user_id: null, credits_per_second: 10 }));
  await db.transaction().execute((trx) => grantCredits(trx, { workspaceId: workspace.id, reference: 'bench', amount: 1_000_000_000 }));
  const { key } = await issueApiKey(db, { workspaceId: workspace.id, kind: 'project', userId: null, name: 'bench', permissions: ['dubbing:read', 'dubbing:write'] });

  const rows: string[][] = [];
  for (const driver of ['local', 's3'] as const) {
    const storageEnv: Record<string, string> =
      driver === 's3'
        ? {
            STORAGE_DRIVER: 's3',
            S3_ENDPOINT: target.endpoint,
            S3_BUCKET: target.bucket,
            S3_REGION: target.region,
            S3_ACCESS_KEY_ID: target.accessKeyId,
            S3_SECRET_ACCESS_KEY: target.secretAccessKey,
            S3_FORCE_PATH_STYLE: 'true',
          }
        : { STORAGE_DRIVER: 'local' };
    const env = serviceEnv({
      databaseUrl: database.url,
      temporalAddress: temporal.address,
      taskQueue: `bench-upload-${driver}`,
      storageDir: path.join(dir, 'storage'),
      extra: { ...storageEnv, UPLOAD_MAX_BYTES: String(size + MiB), UPLOAD_PART_SIZE_BYTES: String(partMiB * MiB) },
    });

    log(`${driver}: bare SDK upload of ${mib} MiB to the same S3 server...`);
    const bareMs = await bareUpload(target, source, partMiB * MiB, concurrency);

    await seedLastKnownFleet(database.url, `bench-upload-${driver}`);
    const api = await startNodeService({ name: `api-${driver}`, script: 'src/api/server.ts', env, logDir: dir, readyPath: '/healthz' });
    // Warm up (lazy modules, pools, JIT) so the measurement sees the big upload only.
    await uploadThroughApi(api, key, warmFile, 2 * partMiB * MiB, concurrency);
    const apiBefore = rssMiB(api.pid);
    let apiPeak = apiBefore;
    const sampler = setInterval(() => {
      apiPeak = Math.max(apiPeak, rssMiB(api.pid));
    }, 50);
    log(`${driver}: uploading ${mib} MiB through the API's transfer URLs...`);
    const started = Date.now();
    const projectId = await uploadThroughApi(api, key, source, size, concurrency).finally(() => clearInterval(sampler));
    const uploadMs = Date.now() - started;
    apiPeak = Math.max(apiPeak, rssMiB(api.pid));
    await api.stop();

    log(`${driver}: the worker's source step (join the parts, stream the source into a temp dir)...`);
    const { stdout } = await execFileAsync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/lib/source-step.ts', projectId], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      maxBuffer: 1024 * 1024,
    });
    const step = JSON.parse(stdout.trim().split('\n').pop()!) as { sizeBytes: number; assembledMs: number; totalMs: number; rssBeforeMiB: number; rssPeakMiB: number };
    if (step.sizeBytes !== size) throw new Error(`the worker step read ${step.sizeBytes} bytes, not ${size}`);

    const mibPerS = (ms: number) => (mib * 1000) / ms;
    rows.push([
      driver,
      `${fmt(mibPerS(uploadMs))} MiB/s (${fmt(uploadMs / 1000)} s)`,
      `${fmt(mibPerS(bareMs))} MiB/s (${fmt(bareMs / 1000)} s)`,
      fmt(bareMs / uploadMs, 2),
      `${fmt(apiPeak - apiBefore)} MiB (${fmt(apiBefore)} → ${fmt(apiPeak)})`,
      `${fmt(step.totalMs / 1000)} s${step.assembledMs > 50 ? ` (join ${fmt(step.assembledMs / 1000)} s)` : ''}`,
      `${fmt(step.rssPeakMiB - step.rssBeforeMiB)} MiB (${fmt(step.rssBeforeMiB)} → ${fmt(step.rssPeakMiB)})`,
    ]);
  }

  process.stdout.write(`\nUpload of a ${mib} MiB source, ${partMiB} MiB parts, ${concurrency} at a time, on versitygw (loopback); ${codeVersion()}\n\n`);
  process.stdout.write(`${formatTable(['Driver', 'Through the API', 'Bare SDK upload', 'Ratio', 'API RSS growth', 'Worker source step', 'Worker step RSS growth'], rows)}\n`);
  process.stdout.write('\nGoals: ratio ≥ 0.8; RSS growth < 64 MiB (flat: it must not grow with --mib).\n');
});
