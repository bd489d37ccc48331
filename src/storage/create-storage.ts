import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import type { DownloadLinks } from './download-links';
import { LocalBlobStore } from './local-blob-store';
import { LocalDownloadLinks } from './local-download-links';
import { LocalMultipartUploads } from './local-multipart-uploads';
import type { MultipartUploads } from './multipart-uploads';
import { S3BlobStore } from './s3/s3-blob-store';
import { createS3Clients } from './s3/s3-clients';
import { S3DownloadLinks } from './s3/s3-download-links';
import { S3MultipartUploads } from './s3/s3-multipart-uploads';
import { UrlSigner } from './url-signer';

/** Everything the API and the workers need from storage, from one driver. */
export interface Storage {
  driver: Config['storage']['driver'];
  blobStore: BlobStore;
  uploads: MultipartUploads;
  downloadLinks: DownloadLinks;
  /** Signs the API's own URLs (part PUTs and file GETs on the local driver). */
  urlSigner: UrlSigner;
}

/** The one place that picks a storage driver from config. */
export function createStorage(config: Pick<Config, 'storage' | 'http'>): Storage {
  const urlSigner = UrlSigner.fromConfig(config);
  const { storage } = config;
  switch (storage.driver) {
    case 'local': {
      const blobStore = new LocalBlobStore(path.resolve(storage.localDir));
      return { driver: 'local', blobStore, uploads: new LocalMultipartUploads(blobStore, urlSigner), downloadLinks: new LocalDownloadLinks(urlSigner), urlSigner };
    }
    case 's3': {
      if (!storage.s3) throw new Error('STORAGE_DRIVER=s3 without S3 settings');
      const clients = createS3Clients(storage.s3);
      return { driver: 's3', blobStore: new S3BlobStore(clients), uploads: new S3MultipartUploads(clients), downloadLinks: new S3DownloadLinks(clients), urlSigner };
    }
    default: {
      const unknown: never = storage.driver;
      throw new Error(`unknown storage driver: ${String(unknown)}`);
    }
  }
}
