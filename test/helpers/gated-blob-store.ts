import { Context } from '@temporalio/activity';
import type { BlobStore } from '../../src/storage/blob-store';

/** A gate a test opens by hand: `reached` resolves when the held step arrives at it. */
export interface Gate {
  reached: Promise<string>;
  open(): void;
}

/**
 * The real blob store, except that once `putFile` (or `copyPatched`) has stored the first key `holdAfter` matches,
 * it waits (heartbeating its activity, up to 2 min) until the gate is opened before returning.
 * Holding a render right after its last file is stored holds the dub between render and publish:
 * the new files are all in the store and the deliverable rows still point at the old ones.
 */
export function gatedBlobStore(inner: BlobStore, holdAfter: (key: string) => boolean): BlobStore & { gate: Gate } {
  let reach!: (key: string) => void;
  let opened = false;
  let held = false;
  const gate: Gate = { reached: new Promise((resolve) => (reach = resolve)), open: () => void (opened = true) };
  const heartbeat = () => {
    try {
      Context.current().heartbeat();
    } catch {
      // Not inside an activity: nothing to keep alive.
    }
  };
  // A whole render stores the held file with putFile; a splice may copy it (an unchanged thumbnail).
  const hold = async (key: string) => {
    if (held || !holdAfter(key)) return;
    held = true;
    reach(key);
    for (let waited = 0; !opened && waited < 120_000; waited += 200) {
      heartbeat();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return {
    gate,
    async putFile(key, filePath) {
      const stored = await inner.putFile(key, filePath);
      await hold(key);
      return stored;
    },
    put: (key, body, options) => inner.put(key, body, options),
    concat: (sourceKeys, destKey, onProgress) => inner.concat(sourceKeys, destKey, onProgress),
    get: (key, range) => inner.get(key, range),
    stat: (key) => inner.stat(key),
    toLocalFile: (key, tempDir, options) => inner.toLocalFile(key, tempDir, options),
    async copyPatched(sourceKey, destKey, patches) {
      const copied = await inner.copyPatched(sourceKey, destKey, patches);
      await hold(destKey);
      return copied;
    },
    delete: (key) => inner.delete(key),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
  };
}
