import type { Context } from 'koa';
import { findOpenReview, type TranscriptReview } from '../../db/transcript-reviews';
import { listSourceSegments } from '../../db/source-segments';
import { findTextBoundProblem } from '../../shared/cue-text-bounds';
import { findCueProblem } from '../../shared/transcript-cues';
import { ReviewStepRefused, type ReviewStep } from '../../temporal/send-review-step';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { reviewerCaller, type ReviewerContext } from '../middleware/authenticate';
import { isUuid } from '../projects/load-own-project';
import { sourceAudioUrl } from '../transcripts/media-links';
import { presentOpenReview } from './review-presenter';
import { bodyOf } from '../middleware/validate';
import { submitReviewBodySchema } from './reviewers.schema';
import { workflowsOf } from '../workflow-gateway';

// A reviewer's steps on one review (docs/editing.md#reviewers). The database answers first, for a
// prompt and precise refusal; the review workflow, whose updates these are, checks again, so two
// reviewers racing for one review cannot both win.

type OpenReview = NonNullable<Awaited<ReturnType<typeof findOpenReview>>>;

/** A review this key may open, or the same 404 as a project that does not exist. */
export async function loadOpenReview(deps: AppDeps, projectId: string): Promise<OpenReview> {
  const review = isUuid(projectId) ? await findOpenReview(deps.db, projectId.toLowerCase()) : undefined;
  if (!review) throw ApiError.notFound('review', 'project_id');
  return review;
}

const holdsIt = (review: Pick<TranscriptReview, 'status' | 'reviewer_key_id'>, caller: ReviewerContext) => review.status === 'in_review' && review.reviewer_key_id === caller.keyId;

const claimedByAnother = (review: Pick<TranscriptReview, 'reviewer'>) =>
  ApiError.conflict('review_claimed_by_another', `This review is claimed by ${review.reviewer ?? 'another reviewer'}: only they can work on it.`);

async function send(deps: AppDeps, review: OpenReview, step: ReviewStep) {
  try {
    return await workflowsOf(deps).sendReviewStep(review, step);
  } catch (err) {
    if (err instanceof ReviewStepRefused) throw ApiError.conflict('review_step_refused', `The review refused this step: ${err.message}.`);
    throw err;
  }
}

/** The review as a reviewer opens it: fields, the transcript and its speech. */
export async function presentReview(deps: AppDeps, review: OpenReview, caller: ReviewerContext) {
  const project = { id: review.project_id, name: review.project_name };
  const [segments, audio] = await Promise.all([listSourceSegments(deps.db, review.project_id), sourceAudioUrl(deps, project)]);
  return presentOpenReview(review, caller, segments, audio);
}

/** requested → in_review, held by this key; claiming one's own review again answers the same. */
export async function claimReview(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = reviewerCaller(ctx);
  const review = await loadOpenReview(deps, ctx.params.project_id!);
  if (review.status === 'in_review' && !holdsIt(review, caller)) throw claimedByAnother(review);
  if (review.status === 'requested') await send(deps, review, { claim: { reviewer: caller.name, reviewerKeyId: caller.keyId } });
  ctx.body = { data: await presentReview(deps, await loadOpenReview(deps, review.project_id), caller) };
}

/** in_review → verified, by the claimant alone: the segments become the transcript the dub is made from. */
export async function submitReview(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = reviewerCaller(ctx);
  const body = bodyOf(ctx, submitReviewBodySchema);
  const review = await loadOpenReview(deps, ctx.params.project_id!);
  if (review.status === 'requested') throw ApiError.conflict('review_not_claimed', 'Claim this review before submitting its transcript.');
  if (!holdsIt(review, caller)) throw claimedByAnother(review);
  const cues = body.segments.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text }));
  // No more text than each cue's time carries; a segment the recognizer made and the reviewer
  // sends back unchanged is not judged again (src/shared/cue-text-bounds.ts).
  const known = async () => (await listSourceSegments(deps.db, review.project_id)).map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text }));
  const problem = findCueProblem(cues, review.duration_seconds) ?? findTextBoundProblem(cues, await known());
  if (problem) throw ApiError.invalid('invalid_transcript', `${problem}.`, 'segments');
  const result = await send(deps, review, { submit: { reviewer: caller.name, reviewerKeyId: caller.keyId, cues } });
  ctx.body = { data: { project_id: review.project_id, status: result.status, reviewer: result.reviewer, verified_at: result.at } };
}
