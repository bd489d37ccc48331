import { Context } from '@temporalio/activity';
import type { LocalFileOptions } from '../storage/blob-store';
import { activityLog } from './activity-log';
import { activityTransfer } from './activity-transfer';

/**
 * What a pipeline step (src/pipeline) gets from the activity that runs it: its log (tagged with
 * the workflow and activity), its heartbeat (which is also how it learns of a cancel), and how it
 * fetches blobs (heartbeating, stopped by a cancel). One place, so every step is run alike.
 */
export interface ActivityContext {
  log: ReturnType<typeof activityLog>;
  onTick: () => void;
  transfer: LocalFileOptions;
}

export function activityContext(): ActivityContext {
  return { log: activityLog(), onTick: () => Context.current().heartbeat(), transfer: activityTransfer() };
}
