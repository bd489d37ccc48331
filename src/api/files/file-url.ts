import { filePath } from '../../storage/local-download-links';
import type { SignedUrl, UrlSigner } from '../../storage/url-signer';

export { filePath };

/** A short-lived GET URL for a blob, e.g. the redirect target of a dubbed audio download. */
export function signFileUrl(signer: UrlSigner, key: string, ttlSeconds: number, now?: Date): SignedUrl {
  return signer.signPath('GET', filePath(key), ttlSeconds, now);
}
