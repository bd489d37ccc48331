import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DubbingApiError, uploadParts } from '../../../src/client';
import { makeTempDir, removeTempDir } from '../../helpers/media-fixtures';

// The part uploader against a small real HTTP server standing in for storage: what it sends
// (each byte range, its Content-MD5 and Content-Length), which refusals it retries, and the
// progress it reports. Waits are recorded, never slept.

const PART = 1000;
let dir: string;
let file: string;
let bytes: Buffer;
let server: Server;
let base: string;
/** What each request received, and how the next answers go (scripted per part). */
const received: { part: number; length: number; md5Matches: boolean }[] = [];
const scripts = new Map<number, { status: number; headers?: Record<string, string>; body?: string }[]>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  const part = Number(new URL(req.url!, 'http://x').pathname.split('/').pop());
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const md5 = createHash('md5').update(body).digest();
    received.push({ part, length: body.length, md5Matches: md5.toString('base64') === req.headers['content-md5'] && Number(req.headers['content-length']) === body.length });
    const next = scripts.get(part)?.shift();
    if (next) {
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      res.end(next.body ?? '');
      return;
    }
    res.writeHead(200, { etag: `"${md5.toString('hex')}"` });
    res.end();
  });
}

beforeAll(async () => {
  dir = makeTempDir('upload-parts');
  bytes = randomBytes(4 * PART + 321);
  file = path.join(dir, 'video.bin');
  writeFileSync(file, bytes);
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  removeTempDir(dir);
});
beforeEach(() => {
  received.length = 0;
  scripts.clear();
});

const md5Hex = (b: Buffer) => createHash('md5').update(b).digest('hex');
const parts = (numbers: number[]) => numbers.map((n) => ({ part_number: n, url: `${base}/parts/${n}?signature=s` }));

it('sends each part as its own byte range with its MD5, in parallel, and returns the ETags in order', async () => {
  let progress = 0;
  const done: number[] = [];
  const result = await uploadParts({
    file,
    sizeBytes: bytes.length,
    partSizeBytes: PART,
    parts: parts([5, 1, 3, 2, 4]),
    concurrency: 3,
    onBytes: (d) => {
      progress += d;
    },
    onPartDone: (p) => {
      done.push(p.part_number);
    },
  });
  expect(result.map((p) => p.part_number)).toEqual([1, 2, 3, 4, 5]);
  for (const p of result) expect(p.etag).toBe(md5Hex(bytes.subarray((p.part_number - 1) * PART, p.part_number * PART)));
  expect(received.every((r) => r.md5Matches)).toBe(true);
  expect(received.find((r) => r.part === 5)?.length).toBe(321);
  expect(progress).toBe(bytes.length);
  expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
});

it('retries a 503 after its Retry-After and a retryable 429, taking back the bytes of the failed attempts', async () => {
  scripts.set(2, [{ status: 503, headers: { 'retry-after': '2' } }, { status: 429 }]);
  const waits: number[] = [];
  let progress = 0;
  const result = await uploadParts({
    file,
    sizeBytes: bytes.length,
    partSizeBytes: PART,
    parts: parts([2]),
    onBytes: (d) => {
      progress += d;
    },
    retry: {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0,
    },
  });
  expect(result).toEqual([{ part_number: 2, etag: md5Hex(bytes.subarray(PART, 2 * PART)) }]);
  expect(received.map((r) => r.part)).toEqual([2, 2, 2]);
  expect(waits).toEqual([2000, 0]);
  expect(progress).toBe(PART); // counted once, though sent three times
});

it('stops at a refusal it cannot fix, with the storage error, and starts no further part', async () => {
  scripts.set(1, [{ status: 403, body: JSON.stringify({ error: { type: 'permission_error', code: 'signature_expired', message: 'This URL has expired.', request_id: 'r1' } }) }]);
  const err = await uploadParts({ file, sizeBytes: bytes.length, partSizeBytes: PART, parts: parts([1, 2, 3]), concurrency: 1, retry: { sleep: async () => undefined } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DubbingApiError);
  expect(err).toMatchObject({ status: 403, code: 'signature_expired', message: 'This URL has expired.' });
  expect(received.map((r) => r.part)).toEqual([1]);
});
