import type { Context } from 'koa';
import { findProjectById, type Project } from '../../../db/projects';
import type { AppDeps } from '../../app-deps';
import { idempotencyOf } from '../../middleware/idempotency';
import { bodyOf } from '../../middleware/validate';
import { paid, unchanged } from '../../paid-call/paid-call';
import { runPaidCall } from '../../paid-call/run-paid-call';
import { loadProjectView } from '../load-project-view';
import { addLanguagesBodySchema } from './add-languages.schema';
import type { AdditionQuote } from './addition-quote';
import { commitAddition } from './commit-addition';
import { quotedAdditionOf } from './quote-request';
import { workflowsOf } from '../../workflow-gateway';

const RECOVERY_POINT = 'languages_added';

type PaidQuote = AdditionQuote & { charged_now_seconds: number };

interface Added {
  addition: PaidQuote;
  project: Project;
}

/**
 * POST /v1/dubbing/projects/{id}/languages with preview_only false, within its limit (the
 * steps before answer previews and over-limit requests), a paid call
 * (docs/design.md#the-paid-call-pipeline). One transaction charges the new languages, adds their
 * rows `queued`, extends target_locales, reopens the project and records the idempotency recovery
 * point; then the project's workflow is told (languagesAdded). A retry after a failure between the
 * two (Temporal unreachable: 503) finds the recovery point and only tells the workflow again.
 * Locales another request added meanwhile cost nothing: that answer is kept, with no recovery point.
 */
export async function addLanguages(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const idempotency = idempotencyOf(ctx);
  const body = bodyOf(ctx, addLanguagesBodySchema);
  const { project: quoted, voices } = quotedAdditionOf(ctx);

  await runPaidCall<Added>(deps, ctx, {
    recoveryPoint: RECOVERY_POINT,
    recover: async (data) => ({ addition: data.addition as PaidQuote, project: (await findProjectById(db, quoted.id)) ?? quoted }),
    projectOf: () => quoted.id,
    async commit(trx) {
      const result = await commitAddition(trx, { projectId: quoted.id, body, idempotencyKey: idempotency.key, voices });
      const addition: PaidQuote = { ...result.quote, charged_now_seconds: result.chargedNowSeconds };
      const added = { addition, project: result.project };
      return result.chargedNowSeconds > 0 ? paid(quoted.id, added, { addition }) : unchanged(quoted.id, added);
    },
    shortfall: (err, available) =>
      `Adding ${body.target_locales.length === 1 ? 'this language' : 'these languages'} costs ${err.requested} credits (billable seconds × new locales × ${quoted.credits_per_second} credits per second)${available}. Nothing was charged or added.`,
    async start({ addition, project }) {
      if (addition.new_locales.length > 0 && addition.charged_now_seconds > 0) await workflowsOf(deps).addLanguages(project, addition.new_locales);
    },
    present: async ({ addition, project }) => ({ body: { data: { addition, project: await loadProjectView(deps, project, { includeTransfer: true }) } } }),
  });
}
