import { Context } from '@temporalio/activity';
import type { LocalFileOptions } from '../storage/blob-store';

/**
 * How an activity fetches a blob into its temp dir: heartbeating through a long download, and
 * stopping it when the activity is cancelled (the caller's `finally` then removes the dir).
 */
export function activityTransfer(): LocalFileOptions {
  const context = Context.current();
  return { signal: context.cancellationSignal, onProgress: () => context.heartbeat() };
}
