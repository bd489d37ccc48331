import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import type { ApiKeyCache } from '../auth/api-key-cache';
import type { Config } from '../config';
import type { Db } from '../db/create-db';
import type { CapabilitySource } from '../fleet/capability-cache';
import type { Logger } from '../logger';
import type { BlobStore } from '../storage/blob-store';
import type { VideoLookup } from '../sources/youtube/video-lookup';
import type { UrlSigner } from '../storage/url-signer';
import type { MultipartUploads } from '../storage/multipart-uploads';
import type { DownloadLinks } from '../storage/download-links';
import type { AuthFailureLimiter } from './rate-limit/auth-failure-limiter';
import type { RateLimiter } from './rate-limit/rate-limiter';

/** Everything the HTTP app needs, passed in so tests build the same app on real services. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** The pool behind `db`: the hot GET of a project runs on it as a named statement (findProjectView). */
  pool: Pool;
  temporal: Client;
  /** The union of the live workers' engines (the API runs none itself). */
  capabilities: CapabilitySource;
  logger: Logger;
  blobStore: BlobStore;
  urlSigner: UrlSigner;
  /** Where upload parts go and how they are completed (the storage driver's). */
  uploads: MultipartUploads;
  /** Redirect targets of downloads (the storage driver's). */
  downloadLinks: DownloadLinks;
  /** Optional: without it every request reads its key from the database. */
  keyCache?: ApiKeyCache;
  /** Per-key request limits shared by the fleet; without it requests are not limited. */
  rateLimiter?: RateLimiter;
  /** Failed authentications per client address; createRouter makes one from the config when not given. */
  authFailures?: AuthFailureLimiter;
  /** The YouTube Data API, for video ids the mirror does not have yet; null without a key. */
  youtube?: VideoLookup | null;
}
