import { assertValidKey } from '../../storage/blob-store';
import type { SignedUrl, UrlSigner } from '../../storage/url-signer';

/** Path of the signed download route for a blob; keys need no escaping (their charset is URL-safe). */
export function filePath(key: string): string {
  assertValidKey(key);
  return `/v1/files/${key}`;
}

/** A short-lived GET URL for a blob, e.g. the redirect target of a dubbed audio download. */
export function signFileUrl(signer: UrlSigner, key: string, ttlSeconds: number, now?: Date): SignedUrl {
  return signer.signPath('GET', filePath(key), ttlSeconds, now);
}
