import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

/** The one place that picks a storage driver from config (the S3 driver joins this switch). */
export function createBlobStore(storage: Config['storage']): BlobStore {
  switch (storage.driver) {
    case 'local':
      return new LocalBlobStore(path.resolve(storage.localDir));
    default: {
      const unknown: never = storage.driver;
      throw new Error(`unknown storage driver: ${String(unknown)}`);
    }
  }
}
