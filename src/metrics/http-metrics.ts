import type { Middleware } from 'koa';
import { httpRequestSeconds } from './metrics';

/**
 * Times every request, labelled by the route template (`/v1/dubbing/projects/:project_id`, never
 * the id, so the series stay few) and the final status, errors included: it runs outside the
 * error middleware.
 */
export function httpMetrics(): Middleware {
  return async (ctx, next) => {
    const end = httpRequestSeconds.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      end({ method: ctx.method, route: typeof route === 'string' ? route : 'unmatched', status: String(ctx.status) });
    }
  };
}
