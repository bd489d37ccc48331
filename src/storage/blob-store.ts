import type { BytePatch } from './byte-patches';

// Driver-neutral blob storage. The API, activities and the CLI only see this interface, so the
// local-disk driver (dev, tests, single-host) and the S3 driver are interchangeable.

export interface LocalFileOptions {
  /** Stops a download when the activity is cancelled. */
  signal?: AbortSignal;
  /** Called every few MiB of a download, for heartbeats. */
  onProgress?: () => void;
}

/**
 * Bytes `start` through `end` of a blob, both inclusive, as HTTP counts them (a Range request's
 * `bytes=start-end`): what a media player asks for when it seeks in a long file.
 */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  /**
   * Streams body into key without buffering it whole; fails with BlobTooLargeError past maxBytes
   * (nothing left behind). Returns size and MD5 hex. Writes atomically: a reader sees the old
   * blob or the new one, never a half-written one.
   */
  put(key: string, body: NodeJS.ReadableStream, options?: { maxBytes?: number }): Promise<{ sizeBytes: number; md5: string }>;
  putFile(key: string, filePath: string): Promise<{ sizeBytes: number }>;
  /** Concatenates sourceKeys in order into destKey, streaming; optional onProgress for heartbeats. */
  concat(sourceKeys: string[], destKey: string, onProgress?: () => void): Promise<{ sizeBytes: number }>;
  /**
   * The blob's bytes, or only those of `range`, which the caller has checked against the blob's
   * size (stat). Throws BlobNotFoundError.
   */
  get(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream>;
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /**
   * A local file path with the blob's bytes: the local driver returns its own file; a remote
   * driver streams it into tempDir, which the caller owns and removes (success, failure or
   * cancellation alike).
   */
  toLocalFile(key: string, tempDir: string, options?: LocalFileOptions): Promise<string>;
  /**
   * Copies sourceKey to destKey with `patches` written over the copy, atomically like put: a
   * long file changed in a few places without passing it through the caller. Throws
   * BlobNotFoundError, and RangeError for patches that overlap or pass the blob's end.
   */
  copyPatched(sourceKey: string, destKey: string, patches: readonly BytePatch[]): Promise<{ sizeBytes: number }>;
  /**
   * Deletes exactly one blob; no error when there is none. Use it, not deletePrefix, for one
   * key: a key is often the prefix of others (a legacy part "…/00001" of "…/00001-<attempt>").
   */
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with prefix (S3 semantics: "a/b" also matches "a/bc"; pass "a/b/" for a folder). */
  deletePrefix(prefix: string): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob at key "${key}"`);
    this.name = 'BlobNotFoundError';
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Blob exceeds ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid blob key "${key}": ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const KEY_CHARS = /^[A-Za-z0-9._/-]+$/;
/** S3's limit on a whole key, and the usual file-system limit on one name (NAME_MAX). */
const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

/**
 * Keys are `a/b/c`. They map onto file paths in the local driver, so anything that could climb
 * out of the root (`..`, absolute paths) or hide from listings (dot segments) is refused by every
 * driver alike: a key valid on disk stays valid on S3 and the other way round. So are keys
 * longer than either allows, which the disk would refuse with ENAMETOOLONG.
 */
export function assertValidKey(key: string): void {
  checkKeyOrPrefix(key, false);
}

/** Like a key, but may end with "/" (a folder). Empty prefixes are refused: they would mean "everything". */
export function assertValidPrefix(prefix: string): void {
  checkKeyOrPrefix(prefix, true);
}

function checkKeyOrPrefix(value: string, isPrefix: boolean): void {
  if (value === '') throw new InvalidBlobKeyError(value, 'empty');
  if (!KEY_CHARS.test(value)) throw new InvalidBlobKeyError(value, 'only A-Z a-z 0-9 . _ / - are allowed');
  if (value.includes('..')) throw new InvalidBlobKeyError(value, '".." is not allowed');
  if (value.startsWith('/')) throw new InvalidBlobKeyError(value, 'must be relative');
  if (value.length > MAX_KEY_BYTES) throw new InvalidBlobKeyError(value, `longer than ${MAX_KEY_BYTES} bytes`);
  const segments = value.split('/');
  if (isPrefix && segments[segments.length - 1] === '') segments.pop();
  for (const segment of segments) {
    if (segment === '') throw new InvalidBlobKeyError(value, 'empty path segment');
    if (segment.startsWith('.')) throw new InvalidBlobKeyError(value, 'segments cannot start with "."');
    if (segment.length > MAX_SEGMENT_BYTES) throw new InvalidBlobKeyError(value, `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
}
