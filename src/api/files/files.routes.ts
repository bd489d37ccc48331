import path from 'node:path';
import Router from '@koa/router';
import { BlobNotFoundError, InvalidBlobKeyError } from '../../storage/blob-store';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { contentTypeFor } from '../../storage/content-type';
import { attachmentDisposition } from '../../storage/download-links';
import { requireSignedUrl, signatureExpired } from './require-signed-url';

/**
 * GET /v1/files/{key}?expires=…&signature=… — a signed, expiring download of one blob (the
 * redirect target for dubbed audio and thumbnails). No API key: the signature is the credential.
 */
export function filesRoutes({ blobStore, urlSigner }: AppDeps): Router {
  const router = new Router();
  // Download URLs are minted by the download endpoint, one short-lived URL per redirect.
  const expired = () => signatureExpired('request GET /v1/dubbing/projects/{project_id}/download again for a fresh URL.');
  router.get('/v1/files/*key', requireSignedUrl(urlSigner, expired), async (ctx) => {
    const key = ctx.params.key ?? '';
    let found: { sizeBytes: number } | null;
    try {
      found = await blobStore.stat(key);
    } catch (err) {
      // Only this service signs these paths, so a bad key is a URL that names nothing.
      if (err instanceof InvalidBlobKeyError) throw ApiError.notFound('file');
      throw err;
    }
    if (!found) throw ApiError.notFound('file');

    ctx.set('Content-Type', contentTypeFor(key));
    // The name the download endpoint signed into the URL (the project's name), else the key's own.
    const fileName = typeof ctx.query.filename === 'string' ? ctx.query.filename : path.posix.basename(key);
    ctx.set('Content-Disposition', attachmentDisposition(fileName));
    // Signed URLs are per-caller and short-lived; shared caches must not keep them.
    ctx.set('Cache-Control', 'private, no-store');
    if (ctx.method === 'HEAD') {
      ctx.length = found.sizeBytes;
      ctx.status = 200;
      return;
    }
    try {
      ctx.body = await blobStore.get(key);
    } catch (err) {
      if (err instanceof BlobNotFoundError) throw ApiError.notFound('file'); // deleted since the stat
      throw err;
    }
    // Set after the body: replacing a body makes Koa drop Content-Length.
    ctx.length = found.sizeBytes;
  });
  return router;
}
