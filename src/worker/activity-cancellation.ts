import { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory } from '@temporalio/worker';
import { HEARTBEAT_EVERY_MS } from '../activities/heartbeat-while';
import { withProcessCancellation } from '../engines/process-cancellation';
import type { BlobStore } from '../storage/blob-store';

// A cancelled activity stops (docs/lifecycle.md#delete). Temporal tells an activity it was
// cancelled only in the answer to a heartbeat, and a workflow waits for its media steps to stop
// (src/workflows/media-route.ts), so: an activity that heartbeats at all (it has a heartbeat
// timeout) heartbeats on a timer for its whole run, even through steps that report nothing (clip
// uploads, a thumbnail); the engines' processes it starts are killed when it is cancelled; its
// blob store writes are refused from then on; and whatever it fails with then is reported as the
// cancellation, not as a failure to retry.

export const activityCancellationInterceptor: ActivityInterceptorsFactory = (ctx) => {
  const inbound: ActivityInboundCallsInterceptor = {
    async execute(input, next) {
      const beats = ctx.info.heartbeatTimeoutMs ? setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS) : undefined;
      try {
        return await withProcessCancellation(ctx.cancellationSignal, () => next(input));
      } catch (err) {
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        throw err;
      } finally {
        clearInterval(beats);
      }
    },
  };
  return { inbound };
};

/** Throws the activity's cancellation once it is cancelled; nothing outside an activity. */
function refuseIfCancelled(): void {
  let signal: AbortSignal;
  try {
    signal = Context.current().cancellationSignal;
  } catch {
    return; // not inside an activity (the API, the console)
  }
  signal.throwIfAborted();
}

/**
 * The blob store of a worker's activities: a write (a clip, a published file, a source) asked
 * for after the activity was cancelled is refused, so a cancelled render stores nothing more.
 * Reads and deletes pass as they are; downloads stop through their own signal (activityTransfer).
 */
export function stopsWritingWhenCancelled(store: BlobStore): BlobStore {
  return {
    putFile: async (key, filePath) => (refuseIfCancelled(), store.putFile(key, filePath)),
    put: async (key, body, options) => (refuseIfCancelled(), store.put(key, body, options)),
    concat: async (sourceKeys, destKey, onProgress) => (refuseIfCancelled(), store.concat(sourceKeys, destKey, onProgress)),
    copyPatched: async (sourceKey, destKey, patches) => (refuseIfCancelled(), store.copyPatched(sourceKey, destKey, patches)),
    get: (key, range) => store.get(key, range),
    stat: (key) => store.stat(key),
    toLocalFile: (key, tempDir, options) => store.toLocalFile(key, tempDir, options),
    delete: (key) => store.delete(key),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
  };
}
