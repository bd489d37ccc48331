import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { Middleware } from 'koa';
import { installedTracing } from '../../tracing/install-tracing';

/** The request id every response carries (x-request-id), to find a client's request among the traces. */
export const REQUEST_ID_ATTRIBUTE = 'dubbing.request_id';

const tracer = trace.getTracer('dubbing-api');

/**
 * A SERVER span per request, continuing the caller's trace when it sends `traceparent`, and the
 * active span while the handler runs: the workflows it starts (and their activities) join the
 * trace. Named `METHOD /route/:template` once the router has matched (never the ids, so the names
 * stay few); the final status is the one the client got, errors included, so it runs outside the
 * error middleware. A process that does not trace (no installTracing before the app is built)
 * gets a middleware that only passes the request on: no span, no context, no header parsing.
 */
export function traceRequest(): Middleware {
  if (!installedTracing()) return (_ctx, next) => next();
  return async (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: ctx.method, [ATTR_URL_PATH]: ctx.path } }, parent);
    if (typeof ctx.state.requestId === 'string') span.setAttribute(REQUEST_ID_ATTRIBUTE, ctx.state.requestId);
    let escapedStatus: number | null = null;
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (err) {
      // Only what escaped the error middleware; Koa answers it with its status, else a 500.
      const status = (err as { status?: unknown }).status;
      escapedStatus = typeof status === 'number' ? status : 500;
      span.recordException(err instanceof Error ? err : String(err));
      throw err;
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      if (typeof route === 'string') {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      const status = escapedStatus ?? ctx.status;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      // A 4xx is the client's mistake, not the server's: only a 5xx marks the span failed.
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
