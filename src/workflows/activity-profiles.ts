import type { ActivityOptions } from '@temporalio/workflow';
import { SOURCE_DOWNLOAD_STEP_MS } from '../shared/source-download-limits';

// Named timeout profiles, so every workflow step says what kind of work it is instead of
// repeating numbers. Activities are idempotent, so retrying generously is safe.

/** A short database step: quick to time out, retried until the database is back. */
export const SHORT_DB_STEP: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** A long media step (ffmpeg, speech, translation): heartbeats so a dead worker is noticed fast. */
export const LONG_MEDIA_STEP: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  // Five attempts over about 30 s: long enough to ride out a worker restart, short enough that a
  // broken engine fails the step (and settles the money) promptly. Permanent errors skip this.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
};

/**
 * The YouTube download: a media step whose yt-dlp run (YOUTUBE_DOWNLOAD_TIMEOUT_MS, at most
 * MAX_DOWNLOAD_TIMEOUT_MS) and the blob store write after it both fit in one attempt.
 */
export const SOURCE_DOWNLOAD_STEP: ActivityOptions = { ...LONG_MEDIA_STEP, startToCloseTimeout: SOURCE_DOWNLOAD_STEP_MS };

/**
 * A step that spends YouTube Data API quota: a quota error (daily units, rate limits) heals only
 * with time, so it backs off steeply and keeps trying for a day; permanent errors skip this.
 */
export const QUOTA_BOUND_STEP: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 4, maximumInterval: '1 hour', maximumAttempts: 30 },
};
