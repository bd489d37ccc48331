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
