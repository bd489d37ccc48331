import Router from '@koa/router';
import { listOpenReviews } from '../../db/transcript-reviews';
import type { AppDeps } from '../app-deps';
import { authenticate, requireReviewer, reviewerCaller } from '../middleware/authenticate';
import { validateBody, validateQuery } from '../middleware/validate';
import { presentQueuedReview } from './review-presenter';
import { claimReview, loadOpenReview, presentReview, submitReview } from './reviewer-steps';
import { claimReviewBodySchema, noQuerySchema, submitReviewBodySchema } from './reviewers.schema';

/**
 * Human transcript review for the service's reviewers (docs/editing.md#reviewers): a reviewer key
 * (`reviews:write`, in no workspace) sees the queue of open reviews across workspaces, opens one,
 * claims it and submits the corrected transcript. A review that is not open, or a project
 * without one, is the same 404 as a project that does not exist.
 */
export function reviewersRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/reviews' });
  const auth = authenticate(deps);
  const reviewer = requireReviewer();

  router.get('/', auth, reviewer, validateQuery(noQuerySchema), async (ctx) => {
    const caller = reviewerCaller(ctx);
    const queue = await listOpenReviews(deps.db);
    ctx.body = { data: queue.map((r) => presentQueuedReview(r, caller)) };
  });

  router.get('/:project_id', auth, reviewer, validateQuery(noQuerySchema), async (ctx) => {
    const review = await loadOpenReview(deps, ctx.params.project_id!);
    ctx.body = { data: await presentReview(deps, review, reviewerCaller(ctx)) };
  });

  router.post('/:project_id/claim', auth, reviewer, validateQuery(noQuerySchema), validateBody(claimReviewBodySchema), (ctx) => claimReview(deps, ctx));

  router.post('/:project_id/submit', auth, reviewer, validateBody(submitReviewBodySchema), (ctx) => submitReview(deps, ctx));

  return router;
}
