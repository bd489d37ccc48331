import { assertValidKey } from './blob-store';
import type { DownloadLinkOptions, DownloadLinks } from './download-links';
import type { UrlSigner } from './url-signer';

/** Path of the signed download route for a blob; keys need no escaping (their charset is URL-safe). */
export function filePath(key: string): string {
  assertValidKey(key);
  return `/v1/files/${key}`;
}

/** The local driver's links: signed URLs of the API's own file route (files.routes.ts). */
export class LocalDownloadLinks implements DownloadLinks {
  constructor(private readonly signer: UrlSigner) {}

  async urlFor(key: string, options: DownloadLinkOptions): Promise<string> {
    return this.signer.signPath('GET', filePath(key), options.ttlSeconds, new Date(), { filename: options.fileName }).url;
  }
}
