import { AsyncLocalStorage } from 'node:async_hooks';

// The cancellation of the work an engine call belongs to (a worker's activity), carried along
// the async calls instead of through every engine's options: runProcess kills its child
// process when it fires, so a cancelled media step stops its ffmpeg, espeak-ng, pocketsphinx or
// apertium at once rather than finishing them. The worker sets it around each activity
// (src/worker/activity-cancellation.ts); outside one there is none and nothing changes.

const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` with `signal` as the cancellation of every process it starts. */
export function withProcessCancellation<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return current.run(signal, work);
}

/** The cancellation of the work running now, if any. */
export function currentCancellation(): AbortSignal | undefined {
  return current.getStore();
}

/** `own` (a caller's, e.g. siblings stopped on a failure) and the ambient cancellation, either one firing. */
export function combinedSignal(own: AbortSignal | undefined): AbortSignal | undefined {
  const ambient = currentCancellation();
  if (!ambient) return own;
  if (!own || own === ambient) return ambient;
  return AbortSignal.any([own, ambient]);
}
