import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { BlobTooLargeError } from './blob-store';

/**
 * A pass-through that counts and hashes the bytes of a blob being written, and fails with
 * BlobTooLargeError at the first byte past `maxBytes`, so a driver stops a too-large body early
 * and keeps memory flat. `result()` is the size and MD5 hex once the stream has ended.
 */
export function meteredStream(maxBytes: number | undefined): { meter: Transform; result: () => { sizeBytes: number; md5: string } } {
  const hash = createHash('md5');
  let sizeBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sizeBytes += chunk.length;
      if (maxBytes !== undefined && sizeBytes > maxBytes) return callback(new BlobTooLargeError(maxBytes));
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return { meter, result: () => ({ sizeBytes, md5: hash.digest('hex') }) };
}
