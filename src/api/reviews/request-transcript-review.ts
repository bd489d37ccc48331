import type { Context } from 'koa';
import { chargeCredits, InsufficientCreditsError } from '../../db/credits';
import { findProjectById, type Project } from '../../db/projects';
import { reviewChargeReference } from '../../db/transcript-reviews';
import { openReview } from '../../lifecycle/review-lifecycle';
import { lockLiveProject } from '../projects/lock-live-project';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { idempotencyOf } from '../middleware/idempotency';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { loadProjectView } from '../projects/load-project-view';
import { assertReviewable, presentReviewState, quoteReview, type ReviewQuote } from './review-quote';
import { transcriptReviewBodySchema } from './transcript-review.schema';
import { workflowsOf } from '../workflow-gateway';

const RECOVERY_POINT = 'review_requested';

type Outcome = { kind: 'charged'; quote: ReviewQuote } | { kind: 'already_requested'; project: Project };

/** A submission (preview_only: false) needs an Idempotency-Key and runs the idempotency step; a preview does neither. */
export const submitsReview = (ctx: { state: object }): boolean => bodyOf(ctx, transcriptReviewBodySchema).preview_only === false;

/**
 * POST /v1/dubbing/projects/{id}/transcript-review (docs/design.md#review). A preview quotes and writes
 * nothing. A submission charges once, in one transaction with the review row, the project's
 * `requested` state and the idempotency recovery point; the review workflow starts after the
 * commit. A retry after a crash or a 503 between the two finds the recovery point and only
 * starts the (same) workflow. Over the limit, or a review already requested: the quote, no charge.
 */
export async function requestTranscriptReview(deps: AppDeps, ctx: Context): Promise<void> {
  const { db, config } = deps;
  const auth = workspaceCaller(ctx);
  const body = bodyOf(ctx, transcriptReviewBodySchema);
  const idempotency = submitsReview(ctx) ? idempotencyOf(ctx) : undefined;
  const project = await loadOwnProject(deps, auth, ctx.params.project_id!);
  const start = (p: Project) => workflowsOf(deps).startReview(p);
  const respond = async (quote: ReviewQuote, current: Project) => {
    ctx.body = { data: { review: quote, project: await loadProjectView(deps, current, { includeTransfer: false }) } };
  };

  if (idempotency?.recoveryPoint === RECOVERY_POINT) {
    // Charged and committed before a crash or an outage: only the workflow start is left.
    await start(project);
    await respond(idempotency.recoveryData?.review as ReviewQuote, project);
    return;
  }

  const { billableSeconds } = assertReviewable(project);
  const quote = quoteReview(project, billableSeconds, { maxBillableSeconds: body.max_billable_seconds, previewOnly: body.preview_only });
  if (body.preview_only) {
    ctx.body = { data: { review: quote, project: presentReviewState(project) } };
    return;
  }
  if (!quote.within_limit) return respond(quote, project);

  const outcome = quote.already_requested
    ? ({ kind: 'already_requested', project } as const)
    : await db.transaction().execute(async (trx): Promise<Outcome> => {
        // The project row lock orders concurrent submissions: the second sees `requested`.
        const locked = await lockLiveProject(trx, project.id);
        if (locked.transcript_review_status !== 'not_requested') return { kind: 'already_requested', project: locked };
        try {
          await chargeCredits(trx, {
            workspaceId: project.workspace_id,
            reference: reviewChargeReference(project.id),
            amount: quote.credits,
            projectId: project.id,
            description: `transcript review, ${quote.billable_seconds} s`,
          });
        } catch (err) {
          if (!(err instanceof InsufficientCreditsError)) throw err;
          const available = auth.permissions.has('usage:read') ? `; ${err.available} are available` : '';
          throw new ApiError(
            402,
            'payment_required_error',
            'insufficient_credits',
            `This review costs ${err.requested} credits (${quote.billable_seconds} s × ${project.credits_per_second} credits per second)${available}.`,
          );
        }
        await openReview(trx, {
          projectId: project.id,
          workspaceId: project.workspace_id,
          billableSeconds: quote.billable_seconds,
          credits: quote.credits,
          deadlineSeconds: config.reviews.deadlineSeconds,
        });
        const charged = { ...quote, charged_now_seconds: quote.billable_seconds };
        await idempotency!.setRecoveryPoint(trx, RECOVERY_POINT, { review: charged });
        return { kind: 'charged', quote: charged };
      });

  if (outcome.kind === 'already_requested') {
    // A repeat charges nothing. While the review is open, starting it again is a no-op that
    // also repairs a start lost to an outage.
    const current = outcome.project;
    if (current.transcript_review_status === 'requested' || current.transcript_review_status === 'in_review') await start(current);
    return respond({ ...quote, already_requested: true, charged_now_seconds: 0 }, current);
  }
  await start(project);
  await respond(outcome.quote, (await findProjectById(db, project.id)) ?? project);
}
