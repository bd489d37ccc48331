import type { Middleware } from 'koa';
import type { UrlSigner } from '../../storage/url-signer';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';

/**
 * Guards a route whose credential is a signed URL instead of an API key (upload parts, file
 * downloads). Runs before any lookup, so an unsigned caller learns nothing about which ids exist.
 */
export function requireSignedUrl(signer: UrlSigner): Middleware {
  return async (ctx, next) => {
    // Koa serves HEAD through the GET route; a GET URL is good for a HEAD of the same file.
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    // ctx.path is the raw (still percent-encoded) path, exactly what was signed.
    const check = signer.verifySignedRequest(method, ctx.path, ctx.query);
    if (!check.ok) {
      throw check.reason === 'expired'
        ? new ApiError(403, ERROR_TYPES.permission_error, 'signature_expired', 'This signed URL has expired; request a fresh one.')
        : new ApiError(403, ERROR_TYPES.permission_error, 'invalid_signature', 'The URL signature is missing or invalid.');
    }
    await next();
  };
}
