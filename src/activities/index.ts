import type { Db } from '../db/create-db';
import type { EngineCapabilities } from '../engines/capabilities';
import type { Engines } from '../engines';
import type { BlobStore } from '../storage/blob-store';
import type { MultipartUploads } from '../storage/multipart-uploads';
import type { Client } from '@temporalio/client';
import type { SourceDownloader } from '../sources/youtube/source-downloader';
import type { ChannelUploadsSource } from '../sources/youtube/video-lookup';
import { createBillingActivities } from './billing.activities';
import { createChannelSyncActivities } from './channel-sync.activities';
import { createLanguageActivities } from './language.activities';
import { createOutcomeActivities } from './outcome.activities';
import { createProjectActivities } from './project.activities';
import { createReconcilerActivities } from './reconciler.activities';
import { createRedubActivities } from './redub.activities';
import { createRegenerationActivities } from './regeneration.activities';
import { createReviewActivities } from './review.activities';
import { createRoutingActivities } from './routing.activities';
import { createSourceReadinessActivities } from './source-readiness.activities';
import { createUploadExpiryActivities } from './upload-expiry.activities';
import { createWebhookActivities, type WebhookSettings } from './webhook.activities';
import { createYoutubeSourceActivities } from './youtube-source.activities';

export interface ActivityDeps {
  db: Db;
  blobStore: BlobStore;
  /** The storage driver's uploads: joining a completed one, aborting abandoned ones. */
  uploads: MultipartUploads;
  engines: Engines;
  capabilities: EngineCapabilities;
  /** The reconciler asks Temporal which workflows run, and starts lost ones. */
  temporal: Client;
  taskQueue: string;
  reconcileGraceSeconds: number;
  /** The YouTube Data API client; null when no YOUTUBE_API_KEY is configured. */
  youtube: ChannelUploadsSource | null;
  /** yt-dlp; null only where YouTube sources are not wanted. */
  downloader: SourceDownloader | null;
  /** Webhook payload links, target rules, attempt timeout and retry schedule. */
  webhooks: WebhookSettings;
  /** Test-only fault injection; see createProjectActivities. */
  pauseAfterCaptureMs?: number;
}

/** Every activity the worker registers, built from their dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createBillingActivities(deps),
    ...createProjectActivities(deps),
    ...createLanguageActivities(deps),
    ...createOutcomeActivities(deps),
    ...createUploadExpiryActivities(deps),
    ...createReconcilerActivities(deps),
    ...createChannelSyncActivities(deps),
    ...createYoutubeSourceActivities(deps),
    ...createReviewActivities(deps),
    ...createRedubActivities(deps),
    ...createRegenerationActivities(deps),
    ...createRoutingActivities(deps),
    ...createSourceReadinessActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
