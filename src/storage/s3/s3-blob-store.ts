import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  UploadPartCommand,
  UploadPartCopyCommand,
  type UploadPartCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, assertValidPrefix, BlobNotFoundError, type BlobStore, type ByteRange, type LocalFileOptions } from '../blob-store';
import { checkedPatches, patchChunk, type BytePatch } from '../byte-patches';
import { contentTypeFor } from '../content-type';
import { meteredStream } from '../metered-stream';
import { copyPartBytes, planCopyParts, type CopyPart } from './patched-copy-parts';
import { isS3NotFound, type S3Clients } from './s3-clients';

/** How often a long transfer reports progress, so activity heartbeats keep flowing. */
const PROGRESS_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Streamed uploads: 8 MiB parts, 2 in flight. Memory stays at about 16 MiB per transfer whatever
 * the file's size, and two requests keep a link busy while one part is being read.
 */
const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

/**
 * copyPatched's parts in flight: a copy inside the store still takes the server a while, so a few
 * at once overlap it with the patched parts' transfers; few enough that the patched parts held in
 * memory (one part each, twice while patched: at most 64 MiB for 8 MiB parts) stay bounded.
 */
const PARTS_IN_FLIGHT = 4;

/** DeleteObjects takes at most 1000 keys. */
const DELETE_BATCH = 1000;

/**
 * Blobs as objects in one bucket, keys unchanged. Every write is a single PutObject or a
 * multipart upload completed at the end, so a reader sees the old object or the new one, never
 * half of one (the BlobStore contract). Nothing is buffered whole: bodies stream through.
 */
export class S3BlobStore implements BlobStore {
  constructor(private readonly s3: S3Clients) {}

  async put(key: string, body: NodeJS.ReadableStream, options: { maxBytes?: number } = {}): Promise<{ sizeBytes: number; md5: string }> {
    assertValidKey(key);
    const { meter, result } = meteredStream(options.maxBytes);
    // A failure on either side tears both down, and both are waited for: the upload is aborted
    // (parts and all) before this rejects, so nothing is left behind.
    const upload = this.newUpload(key, meter);
    const [piped, uploaded] = await Promise.allSettled([pipeline(body, meter), upload.done()]);
    if (piped.status === 'rejected' || uploaded.status === 'rejected') {
      await upload.abort().catch(() => undefined);
      meter.destroy();
      throw piped.status === 'rejected' ? piped.reason : (uploaded as PromiseRejectedResult).reason;
    }
    return result();
  }

  async putFile(key: string, filePath: string): Promise<{ sizeBytes: number }> {
    assertValidKey(key);
    const { size } = await stat(filePath);
    await this.upload(key, createReadStream(filePath));
    return { sizeBytes: size };
  }

  async concat(sourceKeys: string[], destKey: string, onProgress?: () => void): Promise<{ sizeBytes: number }> {
    assertValidKey(destKey);
    // Fail before writing anything when a source is missing (the common case: a lost part).
    for (const key of sourceKeys) {
      if (!(await this.stat(key))) throw new BlobNotFoundError(key);
    }
    let sizeBytes = 0;
    const get = (key: string) => this.get(key);
    async function* chained(): AsyncGenerator<Buffer> {
      let sinceProgress = 0;
      for (const key of sourceKeys) {
        for await (const chunk of (await get(key)) as AsyncIterable<Buffer>) {
          sizeBytes += chunk.length;
          sinceProgress += chunk.length;
          if (sinceProgress >= PROGRESS_EVERY_BYTES) {
            sinceProgress = 0;
            onProgress?.();
          }
          yield chunk;
        }
        onProgress?.();
      }
    }
    await this.upload(destKey, Readable.from(chained(), { objectMode: false }));
    return { sizeBytes };
  }

  async get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    return (await this.getObject(key, { range })).body;
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    const head = await this.head(key);
    return head && { sizeBytes: head.sizeBytes };
  }

  /**
   * A multipart upload the store assembles: a part no patch touches is copied inside the store
   * (UploadPartCopy of its range), a part one touches is downloaded, patched and uploaded. A
   * regeneration writes a few hundred KB over a 115 MB WAV, so about one 8 MiB part per span
   * crosses the worker each way instead of the whole file. Every request names the source's ETag:
   * a source replaced mid-copy fails the copy rather than mixing two versions.
   */
  async copyPatched(sourceKey: string, destKey: string, patches: readonly BytePatch[]): Promise<{ sizeBytes: number }> {
    assertValidKey(destKey);
    const source = await this.head(sourceKey);
    if (!source) throw new BlobNotFoundError(sourceKey);
    const sorted = checkedPatches(patches, source.sizeBytes);
    const parts = planCopyParts(source.sizeBytes, copyPartBytes(source.sizeBytes), sorted);
    // A source under a part is one part (S3's 5 MiB floor spares the last). A multipart upload
    // needs a part, and a part copy a byte: an empty source is an empty put.
    if (parts.length === 0) await this.upload(destKey, Readable.from([]));
    else await this.assembleParts({ key: sourceKey, etag: source.etag }, destKey, parts);
    return { sizeBytes: source.sizeBytes };
  }

  /**
   * Streams the object into a file of its own in tempDir (the caller's per-activity folder,
   * which the caller removes). The signal stops the transfer when the activity is cancelled.
   */
  async toLocalFile(key: string, tempDir: string, options: LocalFileOptions = {}): Promise<string> {
    assertValidKey(key);
    const { body } = await this.getObject(key, { signal: options.signal });
    const file = path.join(tempDir, `${randomUUID()}-${path.posix.basename(key)}`);
    let sinceProgress = 0;
    const progress = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sinceProgress += chunk.length;
        if (sinceProgress >= PROGRESS_EVERY_BYTES) {
          sinceProgress = 0;
          options.onProgress?.();
        }
        callback(null, chunk);
      },
    });
    await pipeline(body, progress, createWriteStream(file), { signal: options.signal });
    return file;
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // S3 answers 204 for a key that does not exist: nothing to special-case.
    await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.s3.client.send(new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: DELETE_BATCH }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        const result = await this.s3.client.send(new DeleteObjectsCommand({ Bucket: this.s3.bucket, Delete: { Objects: keys, Quiet: true } }));
        const failed = result.Errors ?? [];
        if (failed.length > 0) throw new Error(`could not delete ${failed.length} objects under "${prefix}" (first: ${failed[0]!.Key}: ${failed[0]!.Code})`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async head(key: string): Promise<{ sizeBytes: number; etag: string } | null> {
    assertValidKey(key);
    try {
      const head = await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return { sizeBytes: head.ContentLength ?? 0, etag: head.ETag ?? '' };
    } catch (err) {
      if (isS3NotFound(err)) return null;
      throw err;
    }
  }

  /** Parts in flight at once: PARTS_IN_FLIGHT. The object appears on completion; a failure aborts the upload, then rethrows. */
  private async assembleParts(source: SourceVersion, destKey: string, parts: CopyPart[]): Promise<void> {
    const created = await this.s3.client.send(new CreateMultipartUploadCommand({ Bucket: this.s3.bucket, Key: destKey, ContentType: contentTypeFor(destKey) }));
    if (!created.UploadId) throw new Error('the object store returned no UploadId');
    const target = { Bucket: this.s3.bucket, Key: destKey, UploadId: created.UploadId };
    try {
      const etags = await mapBounded(parts, PARTS_IN_FLIGHT, (part) => this.writePart(source, { ...target, PartNumber: part.number }, part));
      const completed = parts.map((part, i) => ({ PartNumber: part.number, ETag: etags[i] }));
      await this.s3.client.send(new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: completed } }));
    } catch (err) {
      // mapBounded returns once no part is in flight, so the abort leaves no part behind it.
      await this.s3.client.send(new AbortMultipartUploadCommand(target)).catch(() => undefined);
      if (isPreconditionFailed(err)) throw new Error(`${source.key} changed while it was copied`, { cause: err });
      throw err;
    }
  }

  /** Copies the part inside the store when no patch touches it, else uploads its patched bytes; answers the part's ETag. */
  private async writePart(source: SourceVersion, target: PartTarget, part: CopyPart): Promise<string | undefined> {
    if (part.patches.length === 0) {
      // Keys hold only URL-safe characters (assertValidKey): the copy source needs no encoding.
      const CopySource = `${this.s3.bucket}/${source.key}`;
      const CopySourceRange = `bytes=${part.start}-${part.end - 1}`;
      const copied = await this.s3.client.send(new UploadPartCopyCommand({ ...target, CopySource, CopySourceRange, CopySourceIfMatch: source.etag }));
      return copied.CopyPartResult?.ETag;
    }
    const { body } = await this.getObject(source.key, { range: { start: part.start, end: part.end - 1 }, etag: source.etag });
    const bytes = await readExactly(body, part.end - part.start);
    const uploaded = await this.s3.client.send(new UploadPartCommand({ ...target, Body: patchChunk(bytes, part.start, part.patches), ContentLength: bytes.length }));
    return uploaded.ETag;
  }

  /** `etag`: only that version of the object, else PreconditionFailed. */
  private async getObject(key: string, options: { signal?: AbortSignal; range?: ByteRange; etag?: string } = {}): Promise<{ body: Readable }> {
    try {
      // The store serves the range itself: only those bytes cross the network.
      const Range = options.range ? `bytes=${options.range.start}-${options.range.end}` : undefined;
      const object = await this.s3.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key, Range, IfMatch: options.etag }), { abortSignal: options.signal });
      return { body: object.Body as Readable };
    } catch (err) {
      if (isS3NotFound(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  /** One PutObject for a small body, a multipart upload for a large one, decided as it streams. */
  private async upload(key: string, body: Readable): Promise<void> {
    const upload = this.newUpload(key, body);
    try {
      await upload.done();
    } catch (err) {
      // A failed body (a source read error in concat) must not leave a multipart upload behind.
      await upload.abort().catch(() => undefined);
      throw err;
    }
  }

  private newUpload(key: string, body: Readable): Upload {
    return new Upload({
      client: this.s3.client,
      params: { Bucket: this.s3.bucket, Key: key, Body: body, ContentType: contentTypeFor(key) },
      partSize: UPLOAD_PART_BYTES,
      queueSize: UPLOAD_QUEUE,
      leavePartsOnError: false,
    });
  }
}

/** The source of a copy, pinned to the version its HeadObject saw. */
interface SourceVersion {
  key: string;
  etag: string;
}

type PartTarget = Pick<UploadPartCommandInput, 'Bucket' | 'Key' | 'UploadId' | 'PartNumber'>;

/**
 * `work` on every item, `limit` at a time, results in the items' order. After a failure no item
 * starts, and it rejects (with the first failure) only once none is running.
 */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (failures.length === 0 && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (err) {
        failures.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}

/** The body's bytes, which must be `length`: the ranged GET of a part. */
async function readExactly(body: Readable, length: number): Promise<Buffer> {
  const bytes = Buffer.alloc(length);
  let filled = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (filled + chunk.length > length) throw new Error(`expected ${length} bytes, got more`);
    filled += chunk.copy(bytes, filled);
  }
  if (filled !== length) throw new Error(`expected ${length} bytes, got ${filled}`);
  return bytes;
}

/** S3 answers 412 PreconditionFailed to an If-Match (or copy-source-if-match) the object no longer has. */
function isPreconditionFailed(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'PreconditionFailed' || e?.$metadata?.httpStatusCode === 412;
}
