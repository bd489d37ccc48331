import type { Context } from 'koa';
import { InsufficientCreditsError } from '../../../db/credits';
import { findProjectById, type Project } from '../../../db/projects';
import { ApiError } from '../../api-error';
import type { AppDeps } from '../../app-deps';
import { workspaceCaller } from '../../middleware/authenticate';
import { idempotencyOf } from '../../middleware/idempotency';
import { bodyOf } from '../../middleware/validate';
import { loadProjectView } from '../load-project-view';
import { addLanguagesBodySchema } from './add-languages.schema';
import type { AdditionQuote } from './addition-quote';
import { commitAddition } from './commit-addition';
import { relayProjectEvents } from '../relay-project-events';
import { quotedAdditionOf } from './quote-request';
import { workflowsOf } from '../../workflow-gateway';

const RECOVERY_POINT = 'languages_added';

type PaidQuote = AdditionQuote & { charged_now_seconds: number };

/**
 * POST /v1/dubbing/projects/{id}/languages with preview_only false, within its limit (the
 * steps before answer previews and over-limit requests). One transaction charges the new
 * languages, adds their rows `queued`, extends target_locales, reopens the project and records
 * the idempotency recovery point; then the project's workflow is told (languagesAdded). A retry
 * after a failure between the two (Temporal unreachable: 503) finds the recovery point and only
 * tells the workflow again.
 */
export async function addLanguages(deps: AppDeps, ctx: Context): Promise<void> {
  const { db } = deps;
  const auth = workspaceCaller(ctx);
  const idempotency = idempotencyOf(ctx);
  const body = bodyOf(ctx, addLanguagesBodySchema);
  const { project: quoted, voices } = quotedAdditionOf(ctx);

  let addition: PaidQuote;
  let project: Project;
  if (idempotency.recoveryPoint === RECOVERY_POINT) {
    addition = idempotency.recoveryData!.addition as PaidQuote;
    project = (await findProjectById(db, quoted.id)) ?? quoted;
  } else {
    const committed = await db.transaction().execute(async (trx) => {
      try {
        const result = await commitAddition(trx, { projectId: quoted.id, body, idempotencyKey: idempotency.key, voices });
        const paid: PaidQuote = { ...result.quote, charged_now_seconds: result.chargedNowSeconds };
        if (result.chargedNowSeconds > 0) await idempotency.setRecoveryPoint(trx, RECOVERY_POINT, { addition: paid });
        return { paid, project: result.project };
      } catch (err) {
        if (!(err instanceof InsufficientCreditsError)) throw err;
        // The balance is what usage:read guards; a key without it learns only that it falls short.
        const available = auth.permissions.has('usage:read') ? `; ${err.available} are available` : '';
        throw new ApiError(
          402,
          'payment_required_error',
          'insufficient_credits',
          `Adding ${body.target_locales.length === 1 ? 'this language' : 'these languages'} costs ${err.requested} credits (billable seconds × new locales × ${quoted.credits_per_second} credits per second)${available}. Nothing was charged or added.`,
        );
      }
    });
    addition = committed.paid;
    project = committed.project;
    await relayProjectEvents(deps, project.id);
  }

  if (addition.new_locales.length > 0 && addition.charged_now_seconds > 0) {
    await workflowsOf(deps).addLanguages(project, addition.new_locales);
  }
  ctx.body = { data: { addition, project: await loadProjectView(deps, project, { includeTransfer: true }) } };
}
