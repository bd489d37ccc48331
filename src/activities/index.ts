import type { Db } from '../db/create-db';
import type { EngineCapabilities } from '../engines/capabilities';
import type { Engines } from '../engines';
import type { BlobStore } from '../storage/blob-store';
import type { Client } from '@temporalio/client';
import { createBillingActivities } from './billing.activities';
import { createLanguageActivities } from './language.activities';
import { createOutcomeActivities } from './outcome.activities';
import { createProjectActivities } from './project.activities';
import { createReconcilerActivities } from './reconciler.activities';
import { createUploadExpiryActivities } from './upload-expiry.activities';

export interface ActivityDeps {
  db: Db;
  blobStore: BlobStore;
  engines: Engines;
  capabilities: EngineCapabilities;
  /** The reconciler asks Temporal which workflows run, and starts lost ones. */
  temporal: Client;
  taskQueue: string;
  reconcileGraceSeconds: number;
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
  };
}

export type Activities = ReturnType<typeof createActivities>;
