import path from 'node:path';
import Router from '@koa/router';
import { BlobNotFoundError, InvalidBlobKeyError } from '../../storage/blob-store';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { contentTypeFor } from '../../storage/content-type';
import { attachmentDisposition } from '../../storage/download-links';
import { ERROR_TYPES } from '../../shared/error-codes';
import { rangeAnswer } from './byte-range';
import { requireSignedUrl, signatureExpired } from './require-signed-url';

/**
 * GET /v1/files/{key}?expires=…&signature=… — a signed, expiring download of one blob (the
 * redirect target for dubbed audio and thumbnails, the editor's audio). No API key: the signature
 * is the credential. One byte range is served as 206, so a media element can seek in a long file.
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
    const size = found.sizeBytes;
    // Judged before any header of the file is set: a 416 is a JSON error body like any other.
    const wanted = rangeAnswer(ctx.get('range') || undefined, size, ctx.get('if-range') || undefined);
    if (wanted.kind === 'unsatisfiable') {
      throw new ApiError(416, ERROR_TYPES.invalid_request_error, 'range_not_satisfiable', `The requested range starts past the end of the file, which is ${size} bytes long.`, 'Range', {
        'Accept-Ranges': 'bytes',
        'Content-Range': `bytes */${size}`,
      });
    }
    const range = wanted.kind === 'partial' ? wanted.range : undefined;

    ctx.set('Content-Type', contentTypeFor(key));
    // The name the download endpoint signed into the URL (the project's name), else the key's own.
    const fileName = typeof ctx.query.filename === 'string' ? ctx.query.filename : path.posix.basename(key);
    ctx.set('Content-Disposition', attachmentDisposition(fileName));
    // Signed URLs are per-caller and short-lived; shared caches must not keep them.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Accept-Ranges', 'bytes');
    if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    const status = range ? 206 : 200;
    const length = range ? range.end - range.start + 1 : size;
    if (ctx.method === 'HEAD') {
      ctx.status = status;
      ctx.length = length;
      return;
    }
    try {
      ctx.body = await blobStore.get(key, range);
    } catch (err) {
      if (err instanceof BlobNotFoundError) throw ApiError.notFound('file'); // deleted since the stat
      throw err;
    }
    // Set after the body: replacing a body makes Koa drop Content-Length.
    ctx.status = status;
    ctx.length = length;
  });
  return router;
}
