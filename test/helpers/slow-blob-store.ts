import type { BlobStore } from '../../src/storage/blob-store';

/**
 * A blob store whose first `putFile` of a matching key takes `delayMs` longer, silently, as a
 * multi-GB file written to S3 does; every call is recorded. Everything else is the real store.
 */
export function slowFirstPutFile(inner: BlobStore, matches: (key: string) => boolean, delayMs: number): BlobStore & { putFileKeys: string[] } {
  const putFileKeys: string[] = [];
  return {
    putFileKeys,
    async putFile(key, filePath) {
      putFileKeys.push(key);
      if (matches(key) && putFileKeys.filter(matches).length === 1) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.putFile(key, filePath);
    },
    put: (key, body, options) => inner.put(key, body, options),
    concat: (sourceKeys, destKey, onProgress) => inner.concat(sourceKeys, destKey, onProgress),
    get: (key, range) => inner.get(key, range),
    stat: (key) => inner.stat(key),
    toLocalFile: (key, tempDir, options) => inner.toLocalFile(key, tempDir, options),
    copyPatched: (sourceKey, destKey, patches) => inner.copyPatched(sourceKey, destKey, patches),
    delete: (key) => inner.delete(key),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
  };
}
