import { BlobNotFoundError, type BlobStore } from './blob-store';

/**
 * Bytes [start, end) of a blob, fewer where it ends sooner: a file's header, or a span of a long
 * file, without fetching the file. `sizeBytes` spares a stat when the caller knows it. Throws
 * BlobNotFoundError.
 */
export async function readBytes(blobStore: BlobStore, key: string, start: number, end: number, sizeBytes?: number): Promise<Buffer> {
  const size = sizeBytes ?? (await blobStore.stat(key))?.sizeBytes;
  if (size === undefined) throw new BlobNotFoundError(key);
  const last = Math.min(end, size) - 1;
  if (last < start) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of (await blobStore.get(key, { start, end: last })) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
