import type { Context, Middleware } from 'koa';
import { reopenLanguage } from '../../../lifecycle/language-lifecycle';
import { findProjectById, type Project } from '../../../db/projects';
import { findLanguage, lockLanguage } from '../../../db/project-languages';
import { lockLiveProject } from '../lock-live-project';
import { ApiError } from '../../api-error';
import type { AppDeps } from '../../app-deps';
import { workspaceCaller } from '../../middleware/authenticate';
import { bodyOf } from '../../middleware/validate';
import { paid, unpaid } from '../../paid-call/paid-call';
import { runPaidCall } from '../../paid-call/run-paid-call';
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

async function answerBody(deps: AppDeps, retry: RetryQuote, project: Project) {
  return { data: { retry, project: await loadProjectView(deps, project, { includeTransfer: false }) } };
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
    ctx.body = await answerBody(deps, priceRetry(project, language!, body), project);
  };
}

interface Reopened {
  retry: RetryQuote;
  project: Project;
  /** Whether the language's workflow is (still) to be started: only while the retry's attempt is open. */
  start: boolean;
}

/**
 * A paid (or free) retry, a paid call (docs/design.md#the-paid-call-pipeline). One transaction
 * checks, quotes, charges the quote and reopens the language as its next attempt, with the
 * idempotency recovery point; the language workflow starts after the commit. A retried request that finds the recovery point only starts the workflow again, and only while
 * that attempt is still open (never a second attempt). Over the limit: the quote, and the key is
 * not kept.
 */
export async function retryLanguage(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const body = bodyOf(ctx, retryLanguageBodySchema);
  const project = retryProjectOf(ctx);
  const locale = ctx.params.locale!;

  await runPaidCall<Reopened>(deps, ctx, {
    recoveryPoint: RECOVERY_POINT,
    projectOf: () => project.id,
    async recover(data) {
      const { retry } = data as unknown as { retry: RetryQuote };
      const language = await findLanguage(db, project.id, locale);
      const open = language !== undefined && language.attempt === retry.attempt && language.status !== 'completed' && language.status !== 'failed';
      return { retry, project: (await findProjectById(db, project.id)) ?? project, start: open };
    },
    async commit(trx) {
      const locked = await lockLiveProject(trx, project.id);
      const found = await findLanguage(trx, project.id, locale);
      assertRetryable(locked, locale, found?.status);
      const language = await lockLanguage(trx, project.id, locale);
      assertRetryable(locked, locale, language.status);
      const quote = priceRetry(locked, language, body);
      if (!quote.within_limit) return unpaid({ retry: quote, project: locked, start: false });
      const attempt = language.attempt + 1;
      await reopenLanguage(trx, { project: locked, language, attempt, billing: quote.price === 'free' ? 'free' : 'charge' });
      const retry: RetryQuote = { ...quote, attempt, charged_now_seconds: quote.billable_seconds };
      return paid(project.id, { retry, project: (await findProjectById(trx, project.id)) ?? locked, start: true }, { retry });
    },
    // What was asked is the quote's credits: its seconds at the project's rate.
    shortfall: (err, available) =>
      `Retrying ${locale} costs ${err.requested} credits (${err.requested / project.credits_per_second} s × ${project.credits_per_second} credits per second)${available}. Nothing was charged or changed.`,
    async start({ retry, start }) {
      if (!start) return;
      await workflowsOf(deps).retryLanguage({ projectId: project.id, workspaceId: project.workspace_id, locale, attempt: retry.attempt!, billing: retry.price === 'free' ? 'free' : 'charge' });
    },
    present: async ({ retry, project: current }) => ({ body: await answerBody(deps, retry, current) }),
  });
}
