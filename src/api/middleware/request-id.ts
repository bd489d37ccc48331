import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Every response carries x-request-id; a sane caller-supplied one is kept for tracing. (Not an
 * async function: it has nothing to do after the request, so it hands on next()'s promise.)
 */
export function requestId(): Middleware {
  return (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = INCOMING_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    ctx.set('x-request-id', ctx.state.requestId);
    return next();
  };
}
