import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3/s3-blob-store';
import { createS3Clients } from './s3/s3-clients';

/** Just the blob store of the configured driver, for tools that need no URLs (see createStorage). */
export function createBlobStore(storage: Config['storage']): BlobStore {
  switch (storage.driver) {
    case 'local':
      return new LocalBlobStore(path.resolve(storage.localDir));
    case 's3':
      if (!storage.s3) throw new Error('STORAGE_DRIVER=s3 without S3 settings');
      return new S3BlobStore(createS3Clients(storage.s3));
    default: {
      const unknown: never = storage.driver;
      throw new Error(`unknown storage driver: ${String(unknown)}`);
    }
  }
}
