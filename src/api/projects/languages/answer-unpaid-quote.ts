import type { Middleware } from 'koa';
import type { AppDeps } from '../../app-deps';
import { loadProjectView } from '../load-project-view';
import { quotedAdditionOf } from './quote-request';

/**
 * Answers the requests that change nothing, before any idempotency key is read or stored:
 * a preview (its key, if sent, is ignored), and a request over its max_billable_seconds (200
 * with `within_limit: false`; nothing charged, added or recorded, so a corrected retry may reuse
 * its key, as with any refused request). Judging the limit before taking the lock is sound:
 * a project's locales only grow, so a quote made later under the lock can only be smaller.
 */
export function answerUnpaidQuote(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const { project, quote } = quotedAdditionOf(ctx);
    if (quote.preview_only) {
      ctx.body = { data: { addition: quote } };
      return;
    }
    if (!quote.within_limit) {
      ctx.body = { data: { addition: { ...quote, charged_now_seconds: 0 }, project: await loadProjectView(deps, project, { includeTransfer: true }) } };
      return;
    }
    await next();
  };
}
