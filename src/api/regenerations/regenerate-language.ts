import type { Context, Middleware } from 'koa';
import { findRunningRegeneration } from '../../db/language-regenerations';
import { findRedubRevision } from '../../db/language-renders';
import { quoteRegeneration } from '../../db/language-segments';
import { findProjectById, type Project } from '../../db/projects';
import { findLanguageStatus } from '../../db/project-languages';
import type { RegenerationRun } from '../../temporal/start-regeneration-workflow';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { idempotencyOf } from '../middleware/idempotency';
import { bodyOf } from '../middleware/validate';
import { paid, unpaid } from '../paid-call/paid-call';
import { runPaidCall } from '../paid-call/run-paid-call';
import { loadOwnProject } from '../projects/load-own-project';
import { loadProjectView } from '../projects/load-project-view';
import { commitRegeneration } from './commit-regeneration';
import { regenerateBodySchema } from './regenerate.schema';
import { assertRegenerable, priceRegeneration, type RegenerationQuote } from './regeneration-quote';
import { stateReader } from '../request-state';
import { workflowsOf } from '../workflow-gateway';

// POST /v1/dubbing/projects/{id}/languages/{locale}/regenerate (docs/editing.md#regenerate), in two
// steps around the idempotency middleware: `regenerationTarget` finds the language and answers a
// preview, which ignores any key; `regenerateLanguage` does the paid request under its key.

/** What regenerationTarget leaves in ctx.state.regeneration for the paid step. */
const regenerationTargetOf = stateReader<RegenerationTarget>('regeneration', 'regenerationTarget()');

export interface RegenerationTarget {
  project: Project;
  locale: string;
}

/** The recovery point of a committed regeneration, and what a retry needs to finish it. */
const RECOVERY_POINT = 'regeneration_charged';
interface ChargedRegeneration {
  regeneration: RegenerationQuote;
  run: RegenerationRun;
}

/** The quote and the project to answer with; `run` once charged (the workflow to start). */
interface Regenerating {
  regeneration: RegenerationQuote;
  run?: RegenerationRun;
  project: Project;
}

async function answerBody(deps: AppDeps, regeneration: RegenerationQuote, project: Project) {
  return { data: { regeneration, project: await loadProjectView(deps, project, { includeTransfer: true }) } };
}

/**
 * The caller's project and one of its languages (the same 404 otherwise), then, for a preview,
 * the quote: it changes nothing, so it is answered here, before any Idempotency-Key is read.
 * A paid request goes on to the idempotency step: only what never changes (the project and its
 * language exist) is judged before it, so a replay always reaches its stored answer.
 */
export function regenerationTarget(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const body = bodyOf(ctx, regenerateBodySchema);
    const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
    const locale = ctx.params.locale!;
    if (!project.target_locales.includes(locale)) throw ApiError.notFound('language', 'locale');
    if (!body.preview_only) {
      const target: RegenerationTarget = { project, locale };
      ctx.state.regeneration = target;
      return next();
    }
    const language = await findLanguageStatus(deps.db, project.id, locale);
    assertRegenerable(locale, language?.status, await findRunningRegeneration(deps.db, project.id, locale), (await findRedubRevision(deps.db, project.id, locale)) !== null);
    ctx.body = await answerBody(deps, priceRegeneration(project, await quoteRegeneration(deps.db, project.id, locale), body), project);
  };
}

/**
 * A paid regeneration, a paid call (docs/design.md#the-paid-call-pipeline). One transaction
 * checks, quotes, charges and records it with the idempotency recovery point (commitRegeneration);
 * its workflow starts after the commit. A retry after a crash or a 503 between the two finds the
 * recovery point and only starts the (same) workflow. Nothing to change, or over the limit: the
 * quote, nothing charged, and the key is not kept (nothing happened that a retry could repeat).
 */
export async function regenerateLanguage(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const idempotency = idempotencyOf(ctx);
  const body = bodyOf(ctx, regenerateBodySchema);
  const { project, locale } = regenerationTargetOf(ctx);

  await runPaidCall<Regenerating>(deps, ctx, {
    recoveryPoint: RECOVERY_POINT,
    projectOf: () => project.id,
    // Charged and committed before a crash or an outage: only the workflow start is left.
    async recover(data) {
      const { regeneration, run } = data as unknown as ChargedRegeneration;
      return { regeneration, run, project: (await findProjectById(db, project.id)) ?? project };
    },
    async commit(trx) {
      const result = await commitRegeneration(trx, { projectId: project.id, locale, body, idempotencyKey: idempotency.key });
      if (result.kind === 'unpaid') return unpaid({ regeneration: result.quote, project: result.project });
      const charged: ChargedRegeneration = { regeneration: result.quote, run: result.run };
      return paid(project.id, { ...charged, project: result.project }, { ...charged });
    },
    shortfall: (err, available) =>
      `This regeneration costs ${err.requested} credits (${err.requested / project.credits_per_second} s × ${project.credits_per_second} credits per second)${available}. Nothing was charged or changed.`,
    async start({ run }) {
      if (run) await workflowsOf(deps).startRegeneration(run);
    },
    present: async ({ regeneration, project: current }) => ({ body: await answerBody(deps, regeneration, current) }),
  });
}
