import type { Context, Middleware } from 'koa';
import { InsufficientCreditsError } from '../../../db/credits';
import { reopenLanguage } from '../../../lifecycle/language-lifecycle';
import { findProjectById, type Project } from '../../../db/projects';
import { findLanguage, lockLanguage } from '../../../db/project-languages';
import { lockLiveProject } from '../lock-live-project';
import { ApiError } from '../../api-error';
import type { AppDeps } from '../../app-deps';
import { workspaceCaller } from '../../middleware/authenticate';
import { idempotencyOf } from '../../middleware/idempotency';
import { bodyOf } from '../../middleware/validate';
import { relayProjectEvents } from '../relay-project-events';
import { loadOwnProject } from '../load-own-project';
import { loadProjectView } from '../load-project-view';
import { retryLanguageBodySchema } from './retry-language.schema';
import { assertRetryable, priceRetry, type RetryQuote } from './retry-quote';
import { stateReader } from '../../request-state';
import { workflowsOf } from '../../workflow-gateway';

// POST /v1/dubbing/projects/{id}/languages/{locale}/retry (docs/lifecycle.md#retry), in two steps
// around the idempotency middleware, like a regeneration: `retryTarget` finds the language and
// answers a preview (no key needed); `retryLanguage` does the paid request under its key.

const RECOVERY_POINT = 'retry_opened';

async function answer(deps: AppDeps, ctx: Context, retry: RetryQuote, project: Project): Promise<void> {
  ctx.body = { data: { retry, project: await loadProjectView(deps, project, { includeTransfer: false }) } };
}

const retryProjectOf = stateReader<Project>('retryProject', 'retryTarget()');

/** The caller's project and one of its target locales (the same 404 otherwise); a preview is answered here. */
export function retryTarget(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const body = bodyOf(ctx, retryLanguageBodySchema);
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    const locale = ctx.params.locale!;
    if (!project.target_locales.includes(locale)) throw ApiError.notFound('language', 'locale');
    ctx.state.retryProject = project;
    if (!body.preview_only) return next();
    const language = await findLanguage(deps.db, project.id, locale);
    assertRetryable(project, locale, language?.status);
    await answer(deps, ctx, priceRetry(project, language!, body), project);
  };
}

/**
 * A paid (or free) retry. One transaction checks, quotes, charges the quote and reopens the
 * language as its next attempt, with the idempotency recovery point; the language workflow
 * starts after the commit. A retried request that finds the recovery point only starts the
 * workflow again, and only while that attempt is still open (never a second attempt).
 */
export async function retryLanguage(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const auth = workspaceCaller(ctx);
  const idempotency = idempotencyOf(ctx);
  const body = bodyOf(ctx, retryLanguageBodySchema);
  const project = retryProjectOf(ctx);
  const locale = ctx.params.locale!;
  const start = (retry: RetryQuote) =>
    workflowsOf(deps).retryLanguage({
      projectId: project.id,
      workspaceId: project.workspace_id,
      locale,
      attempt: retry.attempt!,
      billing: retry.price === 'free' ? 'free' : 'charge',
    });

  if (idempotency.recoveryPoint === RECOVERY_POINT) {
    const { retry } = idempotency.recoveryData as unknown as { retry: RetryQuote };
    const language = await findLanguage(db, project.id, locale);
    if (language && language.attempt === retry.attempt && language.status !== 'completed' && language.status !== 'failed') await start(retry);
    return answer(deps, ctx, retry, (await findProjectById(db, project.id)) ?? project);
  }

  const committed = await db.transaction().execute(async (trx) => {
    const locked = await lockLiveProject(trx, project.id);
    const found = await findLanguage(trx, project.id, locale);
    assertRetryable(locked, locale, found?.status);
    const language = await lockLanguage(trx, project.id, locale);
    assertRetryable(locked, locale, language.status);
    const quote = priceRetry(locked, language, body);
    if (!quote.within_limit) return { paid: false as const, retry: quote, project: locked };
    const attempt = language.attempt + 1;
    try {
      await reopenLanguage(trx, { project: locked, language, attempt, billing: quote.price === 'free' ? 'free' : 'charge' });
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      const available = auth.permissions.has('usage:read') ? `; ${err.available} are available` : '';
      throw new ApiError(
        402,
        'payment_required_error',
        'insufficient_credits',
        `Retrying ${locale} costs ${err.requested} credits (${quote.billable_seconds} s × ${locked.credits_per_second} credits per second)${available}. Nothing was charged or changed.`,
      );
    }
    const retry: RetryQuote = { ...quote, attempt, charged_now_seconds: quote.billable_seconds };
    await idempotency.setRecoveryPoint(trx, RECOVERY_POINT, { retry });
    return { paid: true as const, retry, project: (await findProjectById(trx, project.id)) ?? locked };
  });

  if (!committed.paid) idempotency.answerUnrecorded();
  else {
    await relayProjectEvents(deps, project.id);
    await start(committed.retry);
  }
  await answer(deps, ctx, committed.retry, committed.project);
}
