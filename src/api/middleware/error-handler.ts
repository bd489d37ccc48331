import type { Middleware } from 'koa';
import { ERROR_TYPES } from '../../shared/error-codes';
import type { Logger } from '../../logger';
import { isDatabaseUnavailable } from '../../db/database-unavailable';
import { TemporalUnavailableError } from '../../temporal/temporal-unavailable';
import { ApiError } from '../api-error';
import { requestLogFields } from './request-log';

/**
 * Turns every failure into the public error body. Internal messages never reach clients: an
 * unexpected error is logged with the request id and answered with a generic message.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, ERROR_TYPES.not_found_error, 'route_not_found', `Unrecognized request URL (${ctx.method} ${ctx.path}).`);
      }
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) {
        logger.error('request failed', { ...requestLogFields(ctx), path: ctx.path, err });
      }
      ctx.status = apiError.status;
      for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
      ctx.body = {
        error: {
          type: apiError.type,
          code: apiError.code,
          message: apiError.message,
          ...(apiError.param !== undefined ? { param: apiError.param } : {}),
          request_id: ctx.state.requestId,
        },
      };
    }
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof TemporalUnavailableError) {
    // Whatever committed before the outage is safe: a retry (the same request) picks it up.
    return new ApiError(503, ERROR_TYPES.api_error, 'service_unavailable', 'The workflow service is briefly unavailable; nothing was lost. Retry the same request shortly.', undefined, {
      'retry-after': '5',
    });
  }
  if (isDatabaseUnavailable(err)) {
    // The statement never reached a live database, or died with it: retrying later is safe.
    return new ApiError(503, ERROR_TYPES.api_error, 'service_unavailable', 'The service is briefly unavailable; nothing was lost. Retry the same request shortly.', undefined, { 'retry-after': '5' });
  }
  // koa-router's allowedMethods throws plain http-errors for 405/501.
  const status = (err as { status?: number }).status;
  if (status === 405 || status === 501) {
    return new ApiError(405, ERROR_TYPES.invalid_request_error, 'method_not_allowed', 'This method is not allowed on this URL.');
  }
  return new ApiError(500, ERROR_TYPES.api_error, 'internal_error', 'An internal error occurred. Retry later, and quote the request_id if it persists.');
}
