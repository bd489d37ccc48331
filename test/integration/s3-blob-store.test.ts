import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { loadConfig } from '../../src/config';
import { BlobNotFoundError, BlobTooLargeError, InvalidBlobKeyError } from '../../src/storage/blob-store';
import { readBytes } from '../../src/storage/read-bytes';
import { S3BlobStore } from '../../src/storage/s3/s3-blob-store';
import { createS3Clients } from '../../src/storage/s3/s3-clients';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { storageEnv, testS3Client } from '../helpers/storage-drivers';

// The s3 driver's BlobStore on the real S3-compatible server (versitygw) the global setup runs:
// the same contract the local driver's unit test checks, and what a worker relies on when it
// streams a source into its temp dir.

const MiB = 1024 * 1024;
const config = loadConfig({ ...process.env, ...storageEnv('s3') });
const clients = createS3Clients(config.storage.s3!);
const store = new S3BlobStore(clients);
const admin = testS3Client();
const prefix = `blob-store-test/${randomUUID()}`;
let dir: string;

beforeAll(() => {
  dir = makeTempDir('s3-blob-store');
});
afterAll(async () => {
  await store.deletePrefix(`${prefix}/`);
  clients.client.destroy();
  admin.client.destroy();
  removeTempDir(dir);
});

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
async function read(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await store.get(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

it('puts, stats, reads and deletes blobs, small and multipart, with their MD5 and content type', async () => {
  for (const size of [0, 1000, 17 * MiB]) {
    const key = `${prefix}/put-${size}.mp3`;
    const data = randomBytes(size);
    expect(await store.put(key, Readable.from([data.subarray(0, size >> 1), data.subarray(size >> 1)]))).toEqual({ sizeBytes: size, md5: md5(data) });
    expect(await store.stat(key)).toEqual({ sizeBytes: size });
    expect(md5(await read(key))).toBe(md5(data));
    const head = await admin.client.send(new HeadObjectCommand({ Bucket: admin.bucket, Key: key }));
    expect(head.ContentType).toBe('audio/mpeg');
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
  }
  await store.delete(`${prefix}/never-there`); // no error
});

it('refuses a body past maxBytes and leaves nothing behind, not even a multipart upload', async () => {
  const key = `${prefix}/too-big`;
  await expect(store.put(key, Readable.from([randomBytes(9 * MiB), randomBytes(9 * MiB)]), { maxBytes: 10 * MiB })).rejects.toBeInstanceOf(BlobTooLargeError);
  expect(await store.stat(key)).toBeNull();
  const open = await admin.client.send(new ListMultipartUploadsCommand({ Bucket: admin.bucket, Prefix: key }));
  expect(open.Uploads ?? []).toEqual([]);
});

it('streams a blob into the caller’s temp dir, and stops (file and all) when the activity is cancelled', async () => {
  const key = `${prefix}/source.mp4`;
  const data = randomBytes(24 * MiB);
  await store.put(key, Readable.from([data]));
  let ticks = 0;
  const file = await store.toLocalFile(key, dir, { onProgress: () => ticks++ });
  expect(file.startsWith(dir)).toBe(true);
  expect(md5(readFileSync(file))).toBe(md5(data));
  expect(ticks).toBeGreaterThanOrEqual(2); // every 8 MiB: heartbeats flow through a long download

  const cancelled = makeTempDir('s3-cancel');
  try {
    const controller = new AbortController();
    const download = store.toLocalFile(key, cancelled, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(download).rejects.toMatchObject({ name: 'AbortError' });
  } finally {
    removeTempDir(cancelled); // what the activity's `finally` does
  }
  await expect(store.toLocalFile(`${prefix}/missing`, dir)).rejects.toBeInstanceOf(BlobNotFoundError);
  await expect(store.get(`${prefix}/missing`)).rejects.toBeInstanceOf(BlobNotFoundError);
  expect(readdirSync(dir)).toHaveLength(1);
});

it('reads only the bytes of a range, both ends inclusive, as the local driver does', async () => {
  const key = `${prefix}/ranged.wav`;
  const data = randomBytes(9 * MiB + 7);
  await store.put(key, Readable.from([data]));
  const range = async (start: number, end: number) => {
    const chunks: Buffer[] = [];
    for await (const chunk of (await store.get(key, { start, end })) as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  expect(await range(0, 0)).toEqual(data.subarray(0, 1));
  expect(md5(await range(5 * MiB, 9 * MiB + 6))).toBe(md5(data.subarray(5 * MiB)));
  expect(await range(1000, 66_000)).toEqual(data.subarray(1000, 66_001));
  await expect(store.get(`${prefix}/missing`, { start: 0, end: 10 })).rejects.toBeInstanceOf(BlobNotFoundError);
});

it('concatenates blobs in order, and fails before writing when a source is missing', async () => {
  const parts = [randomBytes(3 * MiB), randomBytes(6 * MiB), randomBytes(5)];
  const keys = parts.map((_, i) => `${prefix}/parts/${i}`);
  for (const [i, key] of keys.entries()) await store.put(key, Readable.from([parts[i]!]));
  let progress = 0;
  expect(await store.concat(keys, `${prefix}/joined`, () => progress++)).toEqual({ sizeBytes: 9 * MiB + 5 });
  expect(md5(await read(`${prefix}/joined`))).toBe(md5(Buffer.concat(parts)));
  expect(progress).toBeGreaterThanOrEqual(keys.length);
  await expect(store.concat([keys[0]!, `${prefix}/parts/nope`], `${prefix}/joined-2`)).rejects.toBeInstanceOf(BlobNotFoundError);
  expect(await store.stat(`${prefix}/joined-2`)).toBeNull();
});

it('deletes by prefix with S3 semantics, and refuses keys the local driver would refuse too', async () => {
  for (const key of ['d/a', 'd/ab', 'd/b/c', 'e']) await store.put(`${prefix}/${key}`, Readable.from([Buffer.from(key)]));
  await store.deletePrefix(`${prefix}/d/a`);
  expect(await store.stat(`${prefix}/d/a`)).toBeNull();
  expect(await store.stat(`${prefix}/d/ab`)).toBeNull();
  expect(await store.stat(`${prefix}/d/b/c`)).toEqual({ sizeBytes: 5 });
  await store.deletePrefix(`${prefix}/d/`);
  expect(await store.stat(`${prefix}/d/b/c`)).toBeNull();
  expect(await store.stat(`${prefix}/e`)).toEqual({ sizeBytes: 1 });
  for (const bad of ['../x', '/abs', 'a//b', 'a/.hidden', 'sp ace']) await expect(store.stat(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
  await expect(store.deletePrefix('')).rejects.toBeInstanceOf(InvalidBlobKeyError);
});

it('reads bytes of a blob through a range get (fewer past its end), and copies one with patches written over the copy', async () => {
  const data = randomBytes(17 * MiB + 3);
  const source = `${prefix}/rev1/dub.wav`;
  await store.put(source, Readable.from([data]));
  expect(await readBytes(store, source, 100, 1100)).toEqual(data.subarray(100, 1100));
  expect(await readBytes(store, source, data.length - 10, data.length + 100)).toEqual(data.subarray(data.length - 10));
  expect(await readBytes(store, source, data.length + 10, data.length + 100)).toEqual(Buffer.alloc(0));
  await expect(readBytes(store, `${prefix}/none`, 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);

  // One patch across a part boundary of the streamed copy, one at the very end.
  const patches = [
    { offset: 8 * MiB - 5, bytes: randomBytes(10) },
    { offset: data.length - 3, bytes: Buffer.from('end') },
  ];
  expect(await store.copyPatched(source, `${prefix}/rev2/dub.wav`, patches)).toEqual({ sizeBytes: data.length });
  const expected = Buffer.from(data);
  for (const p of patches) p.bytes.copy(expected, p.offset);
  expect(md5(await read(`${prefix}/rev2/dub.wav`))).toBe(md5(expected));
  expect(md5(await read(source))).toBe(md5(data));
  await expect(store.copyPatched(source, `${prefix}/rev3/dub.wav`, [{ offset: data.length - 1, bytes: Buffer.alloc(2) }])).rejects.toBeInstanceOf(RangeError);
  await expect(store.copyPatched(`${prefix}/none`, `${prefix}/rev3/dub.wav`, [])).rejects.toBeInstanceOf(BlobNotFoundError);
  expect(await store.stat(`${prefix}/rev3/dub.wav`)).toBeNull();
}, 60_000);

describe('copyPatched in parts', () => {
  // A store on clients of its own that count what crosses the worker (GET bodies down, part and
  // put bodies up) and what the store copies itself (UploadPartCopy ranges), and can run a step
  // before a request is sent.
  const observed = createS3Clients(config.storage.s3!);
  const partStore = new S3BlobStore(observed);
  const traffic = { downloaded: 0, uploaded: 0, copiedInStore: 0 };
  let beforeRequest: ((command: string, input: { PartNumber?: number; Range?: string }) => Promise<void>) | null = null;
  observed.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { PartNumber?: number; Range?: string; Body?: unknown; CopySourceRange?: string };
      await beforeRequest?.(context.commandName as string, input);
      if (input.Body instanceof Uint8Array) traffic.uploaded += input.Body.byteLength;
      if (input.CopySourceRange) traffic.copiedInStore += rangeLength(input.CopySourceRange);
      const result = await next(args);
      if (context.commandName === 'GetObjectCommand') traffic.downloaded += (result.output as { ContentLength?: number }).ContentLength ?? 0;
      return result;
    },
    { step: 'initialize', name: 'observeTraffic' },
  );
  const rangeLength = (range: string) => {
    const [start, end] = range.replace('bytes=', '').split('-').map(Number);
    return end! - start! + 1;
  };
  const resetTraffic = () => Object.assign(traffic, { downloaded: 0, uploaded: 0, copiedInStore: 0 });
  afterEach(() => {
    beforeRequest = null;
  });
  afterAll(() => observed.client.destroy());

  // 21 MiB: parts [0, 8), [8, 16) and [16, 21) MiB.
  const data = randomBytes(21 * MiB);
  const source = `${prefix}/parted/dub.wav`;
  beforeAll(() => store.put(source, Readable.from([data])));
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const patch = (offset: number, length: number) => ({ offset, bytes: randomBytes(length) });
  const patched = (bytes: Buffer, patches: { offset: number; bytes: Buffer }[]) => {
    const out = Buffer.from(bytes);
    for (const p of patches) p.bytes.copy(out, p.offset);
    return out;
  };
  async function expectNothingAt(key: string): Promise<void> {
    expect(await store.stat(key)).toBeNull();
    const open = await admin.client.send(new ListMultipartUploadsCommand({ Bucket: admin.bucket, Prefix: key }));
    expect(open.Uploads ?? []).toEqual([]);
  }

  it('copies the parts no patch touches inside the store: only the patched parts cross the worker', async () => {
    // Parts 1 and 3: at byte 0, a span of 300 KB inside part 3, the very end of the short last part.
    const patches = [patch(0, 1000), patch(17 * MiB + 12_345, 300 * 1024), patch(data.length - 3, 3)];
    resetTraffic();
    expect(await partStore.copyPatched(source, `${prefix}/parted/rev2.wav`, patches)).toEqual({ sizeBytes: data.length });
    expect(sha256(await read(`${prefix}/parted/rev2.wav`))).toBe(sha256(patched(data, patches)));
    expect(traffic.downloaded).toBeLessThan(2 * 8 * MiB); // the whole object streamed through is 21 MiB
    expect(traffic).toEqual({ downloaded: 13 * MiB, uploaded: 13 * MiB, copiedInStore: 8 * MiB });
    const head = await admin.client.send(new HeadObjectCommand({ Bucket: admin.bucket, Key: `${prefix}/parted/rev2.wav` }));
    expect(head.ContentType).toBe('audio/wav');

    // A patch across the boundary of parts 1 and 2 goes to both; part 3 is still copied in the store.
    const straddling = [patch(8 * MiB - 100, 200)];
    resetTraffic();
    await partStore.copyPatched(source, `${prefix}/parted/rev3.wav`, straddling);
    expect(sha256(await read(`${prefix}/parted/rev3.wav`))).toBe(sha256(patched(data, straddling)));
    expect(traffic).toEqual({ downloaded: 16 * MiB, uploaded: 16 * MiB, copiedInStore: 5 * MiB });
    expect(sha256(await read(source))).toBe(sha256(data));
  }, 60_000);

  it('copies a source smaller than a part, and an empty one', async () => {
    const small = randomBytes(1000);
    await store.put(`${prefix}/parted/small.wav`, Readable.from([small]));
    const patches = [patch(998, 2)];
    expect(await partStore.copyPatched(`${prefix}/parted/small.wav`, `${prefix}/parted/small-2.wav`, patches)).toEqual({ sizeBytes: 1000 });
    expect(await read(`${prefix}/parted/small-2.wav`)).toEqual(patched(small, patches));
    expect(await partStore.copyPatched(`${prefix}/parted/small.wav`, `${prefix}/parted/small-3.wav`, [])).toEqual({ sizeBytes: 1000 });
    expect(await read(`${prefix}/parted/small-3.wav`)).toEqual(small);
    await store.put(`${prefix}/parted/empty.wav`, Readable.from([Buffer.alloc(0)]));
    expect(await partStore.copyPatched(`${prefix}/parted/empty.wav`, `${prefix}/parted/empty-2.wav`, [{ offset: 0, bytes: Buffer.alloc(0) }])).toEqual({ sizeBytes: 0 });
    expect(await store.stat(`${prefix}/parted/empty-2.wav`)).toEqual({ sizeBytes: 0 });
  });

  it('leaves no object and no multipart upload when the copy fails: a patch past the end, a refused part', async () => {
    const dest = `${prefix}/parted/failed.wav`;
    await expect(partStore.copyPatched(source, dest, [patch(data.length - 1, 2)])).rejects.toBeInstanceOf(RangeError);
    await expectNothingAt(dest);

    // Part 2 fails while parts 1 and 3 are in flight or done.
    beforeRequest = async (command, input) => {
      if (command.startsWith('UploadPart') && input.PartNumber === 2) throw new Error('the store refused part 2');
    };
    await expect(partStore.copyPatched(source, dest, [patch(0, 10)])).rejects.toThrow('the store refused part 2');
    await expectNothingAt(dest);
  }, 60_000);

  // The same size: only the ETag tells the versions apart. Every part is copied in the store, or
  // every part downloaded, so the refusal can only come from that request's condition.
  it.each<[string, number[], (command: string, input: { PartNumber?: number; Range?: string }) => boolean]>([
    ['a part copied in the store', [], (command, input) => command === 'UploadPartCopyCommand' && input.PartNumber === 2],
    ['a part downloaded', [5, 9 * MiB, data.length - 1], (command, input) => command === 'GetObjectCommand' && input.Range === `bytes=${16 * MiB}-${data.length - 1}`],
  ])(
    'fails, leaving nothing, when the source is replaced before %s',
    async (_, patchOffsets, isTheRequest) => {
      const replaced = `${prefix}/parted/replaced.wav`;
      const dest = `${prefix}/parted/from-replaced.wav`;
      await store.put(replaced, Readable.from([data]));
      let didReplace = false;
      beforeRequest = async (command, input) => {
        if (didReplace || !isTheRequest(command, input)) return;
        didReplace = true;
        await store.put(replaced, Readable.from([randomBytes(data.length)]));
      };
      const patches = patchOffsets.map((offset) => patch(offset, 1));
      await expect(partStore.copyPatched(replaced, dest, patches)).rejects.toThrow(`${replaced} changed while it was copied`);
      expect(didReplace).toBe(true);
      await expectNothingAt(dest);
    },
    60_000,
  );
});
