import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertValidKey, assertValidPrefix, BlobNotFoundError, type BlobStore, type ByteRange, type LocalFileOptions } from '../blob-store';
import { checkedPatches, patchChunk, type BytePatch } from '../byte-patches';
import { contentTypeFor } from '../content-type';
import { meteredStream } from '../metered-stream';
import { isS3NotFound, type S3Clients } from './s3-clients';

/** How often a long transfer reports progress, so activity heartbeats keep flowing. */
const PROGRESS_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * Streamed uploads: 8 MiB parts, 2 in flight. Memory stays at about 16 MiB per transfer whatever
 * the file's size, and two requests keep a link busy while one part is being read.
 */
const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

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
    return (await this.getObject(key, undefined, range)).body;
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    assertValidKey(key);
    try {
      const head = await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return { sizeBytes: head.ContentLength ?? 0 };
    } catch (err) {
      if (isS3NotFound(err)) return null;
      throw err;
    }
  }

  /**
   * The object streams through, patched on the way. Copying the unchanged parts inside S3
   * (UploadPartCopy) would spare the transfer; the bytes are the same either way.
   */
  async copyPatched(sourceKey: string, destKey: string, patches: readonly BytePatch[]): Promise<{ sizeBytes: number }> {
    assertValidKey(destKey);
    const source = await this.stat(sourceKey);
    if (!source) throw new BlobNotFoundError(sourceKey);
    const sorted = checkedPatches(patches, source.sizeBytes);
    let position = 0;
    const patcher = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        const out = patchChunk(chunk, position, sorted);
        position += chunk.length;
        callback(null, out);
      },
    });
    const { body } = await this.getObject(sourceKey);
    // A failed download fails the upload (which aborts itself) instead of leaving it waiting.
    body.on('error', (err) => patcher.destroy(err));
    await this.upload(destKey, body.pipe(patcher));
    if (position !== source.sizeBytes) throw new Error(`${sourceKey} changed while it was copied`);
    return { sizeBytes: position };
  }

  /**
   * Streams the object into a file of its own in tempDir (the caller's per-activity folder,
   * which the caller removes). The signal stops the transfer when the activity is cancelled.
   */
  async toLocalFile(key: string, tempDir: string, options: LocalFileOptions = {}): Promise<string> {
    assertValidKey(key);
    const { body } = await this.getObject(key, options.signal);
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

  private async getObject(key: string, abortSignal?: AbortSignal, range?: ByteRange): Promise<{ body: Readable }> {
    try {
      // The store serves the range itself: only those bytes cross the network.
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      const object = await this.s3.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key, Range }), { abortSignal });
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
