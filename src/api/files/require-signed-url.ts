import type { Context, Middleware } from 'koa';
import type { UrlSigner } from '../../storage/url-signer';
import { ERROR_TYPES } from '../../shared/error-codes';
import { ApiError } from '../api-error';

/**
 * What to answer for a URL this service really signed but whose time is up: where to get a
 * fresh one differs per route (the download endpoint, or the project's transfer block), and a
 * route may know a better reason (the upload itself has expired).
 */
export type ExpiredUrlAnswer = (ctx: Context) => Promise<ApiError> | ApiError;

export const signatureExpired = (howToRenew: string): ApiError => new ApiError(403, ERROR_TYPES.permission_error, 'signature_expired', `This signed URL has expired; ${howToRenew}`);

/**
 * Guards a route whose credential is a signed URL instead of an API key (upload parts, file
 * downloads). Runs before any lookup, so an unsigned caller learns nothing about which ids exist;
 * only `onExpired`, for a URL whose signature is authentic, may look something up.
 */
export function requireSignedUrl(signer: UrlSigner, onExpired: ExpiredUrlAnswer = () => signatureExpired('request a fresh one.')): Middleware {
  return async (ctx, next) => {
    // Koa serves HEAD through the GET route; a GET URL is good for a HEAD of the same file.
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    // ctx.path is the raw (still percent-encoded) path, exactly what was signed.
    const check = signer.verifySignedRequest(method, ctx.path, ctx.query);
    if (!check.ok) {
      throw check.reason === 'expired' ? await onExpired(ctx) : new ApiError(403, ERROR_TYPES.permission_error, 'invalid_signature', 'The URL signature is missing or invalid.');
    }
    await next();
  };
}
