import type { Context, Middleware } from 'koa';
import type { Logger } from '../../logger';
import { authOf } from './authenticate';

/** The ids a log line about this request carries, so one grep finds a caller's story. */
export function requestLogFields(ctx: Context): Record<string, unknown> {
  const auth = authOf(ctx);
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return {
    request_id: ctx.state.requestId,
    method: ctx.method,
    route: typeof route === 'string' ? route : null,
    ...(auth ? { workspace_id: auth.workspaceId, key_id: auth.keyId } : {}),
    ...(ctx.params?.project_id ? { project_id: ctx.params.project_id } : {}),
  };
}

/**
 * One info line per request once it is answered: ids, status and duration. Never the query
 * string or headers (signed URLs and keys live there); the logger scrubs what slips through.
 */
export function requestLog(logger: Logger): Middleware {
  // The level is set once per process: below info (LOG_LEVEL=warn), the per-request work is skipped whole.
  if (!logger.isEnabled('info')) return (_ctx, next) => next();
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info('request', { ...requestLogFields(ctx), status: ctx.status, duration_ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
  };
}
