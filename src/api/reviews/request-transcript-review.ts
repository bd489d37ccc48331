import type { Context } from 'koa';
import { chargeCredits } from '../../db/credits';
import { findProjectById, type Project } from '../../db/projects';
import { reviewChargeReference } from '../../db/transcript-reviews';
import { openReview } from '../../lifecycle/review-lifecycle';
import { lockLiveProject } from '../projects/lock-live-project';
import type { AppDeps } from '../app-deps';
import { workspaceCaller } from '../middleware/authenticate';
import { bodyOf } from '../middleware/validate';
import { loadOwnProject } from '../projects/load-own-project';
import { loadProjectView } from '../projects/load-project-view';
import { paid, unchanged } from '../paid-call/paid-call';
import { runPaidCall } from '../paid-call/run-paid-call';
import { assertReviewable, presentReviewState, quoteReview, type ReviewQuote } from './review-quote';
import { transcriptReviewBodySchema } from './transcript-review.schema';
import { workflowsOf } from '../workflow-gateway';

const RECOVERY_POINT = 'review_requested';

interface Requested {
  review: ReviewQuote;
  project: Project;
  /** Whether the review's workflow is (still) to be started: a start is a no-op while it runs. */
  start: boolean;
}

/** A submission (preview_only: false) needs an Idempotency-Key and runs the idempotency step; a preview does neither. */
export const submitsReview = (ctx: { state: object }): boolean => bodyOf(ctx, transcriptReviewBodySchema).preview_only === false;

/**
 * POST /v1/dubbing/projects/{id}/transcript-review (docs/design.md#review). A preview quotes and
 * writes nothing. A submission is a paid call (docs/design.md#the-paid-call-pipeline): it charges
 * once, in one transaction with the review row, the project's `requested` state and the
 * idempotency recovery point; the review workflow starts after the commit. A retry after a crash
 * or a 503 between the two finds the recovery point and only starts the (same) workflow. Over the
 * limit, or a review already requested: the quote, no charge.
 */
export async function requestTranscriptReview(deps: AppDeps, ctx: Context): Promise<void> {
  const { config } = deps;
  const body = bodyOf(ctx, transcriptReviewBodySchema);
  const project = await loadOwnProject(deps, workspaceCaller(ctx), ctx.params.project_id!);
  const quoteOf = () => quoteReview(project, assertReviewable(project).billableSeconds, { maxBillableSeconds: body.max_billable_seconds, previewOnly: body.preview_only });
  if (body.preview_only) {
    ctx.body = { data: { review: quoteOf(), project: presentReviewState(project) } };
    return;
  }

  await runPaidCall<Requested, ReviewQuote>(deps, ctx, {
    recoveryPoint: RECOVERY_POINT,
    // Charged and committed before a crash or an outage: only the workflow start is left.
    recover: async (data) => ({ review: data.review as ReviewQuote, project, start: true }),
    projectOf: () => project.id,
    prepare: async () => quoteOf(),
    async commit(trx, quote) {
      // Over the limit: the quote, nothing charged (the answer is kept).
      if (!quote.within_limit) return unchanged(project.id, { review: quote, project, start: false });
      // The project row lock orders concurrent submissions: the second sees `requested`.
      const locked = quote.already_requested ? project : await lockLiveProject(trx, project.id);
      if (locked.transcript_review_status !== 'not_requested') {
        // A repeat charges nothing. While the review is open, starting it again is a no-op that
        // also repairs a start lost to an outage.
        const open = locked.transcript_review_status === 'requested' || locked.transcript_review_status === 'in_review';
        return unchanged(project.id, { review: { ...quote, already_requested: true, charged_now_seconds: 0 }, project: locked, start: open });
      }
      await chargeCredits(trx, {
        workspaceId: project.workspace_id,
        reference: reviewChargeReference(project.id),
        amount: quote.credits,
        projectId: project.id,
        description: `transcript review, ${quote.billable_seconds} s`,
      });
      await openReview(trx, {
        projectId: project.id,
        workspaceId: project.workspace_id,
        billableSeconds: quote.billable_seconds,
        credits: quote.credits,
        deadlineSeconds: config.reviews.deadlineSeconds,
      });
      const review = { ...quote, charged_now_seconds: quote.billable_seconds };
      return paid(project.id, { review, project: (await findProjectById(trx, project.id)) ?? project, start: true }, { review });
    },
    shortfall: (err, available, quote) => `This review costs ${err.requested} credits (${quote.billable_seconds} s × ${project.credits_per_second} credits per second)${available}.`,
    async start(requested) {
      if (requested.start) await workflowsOf(deps).startReview(requested.project);
    },
    present: async ({ review, project: current }) => ({ body: { data: { review, project: await loadProjectView(deps, current, { includeTransfer: false }) } } }),
  });
}
