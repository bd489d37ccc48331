import type { ActivityDeps } from '../activities';
import type { Config } from '../config';
import type { Db } from '../db/create-db';
import { createLocalEngines } from '../engines';
import { detectCapabilities } from '../engines/capabilities';
import { createBlobStore } from '../storage/create-blob-store';

/** The real dependencies of every activity: database, blob store, local engines. */
export async function createActivityDeps(config: Config, db: Db): Promise<ActivityDeps> {
  return {
    db,
    blobStore: createBlobStore(config.storage),
    engines: createLocalEngines(),
    capabilities: await detectCapabilities(),
    pauseAfterCaptureMs: config.testing.pauseAfterCaptureMs || undefined,
  };
}
