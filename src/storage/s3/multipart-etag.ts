import { createHash } from 'node:crypto';

/**
 * The ETag S3 gives an object completed from these parts: the MD5 of the parts' binary MD5s,
 * a dash, the part count. It lets a retried completion recognise its own earlier success.
 * Part ETags that are not MD5 hex (an encrypted bucket's) yield null: nothing to recognise.
 */
export function multipartEtag(partEtags: string[]): string | null {
  if (partEtags.length === 0 || !partEtags.every((e) => /^[0-9a-f]{32}$/i.test(e))) return null;
  const hash = createHash('md5');
  for (const etag of partEtags) hash.update(Buffer.from(etag, 'hex'));
  return `${hash.digest('hex')}-${partEtags.length}`;
}
