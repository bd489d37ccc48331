import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../db/create-db';
import { refundCredits } from '../db/credits';
import { findProjectById, lockExistingProject } from '../db/projects';
import { findReview, lockReview, reviewRefundReference, type TranscriptReview } from '../db/transcript-reviews';
import { moveReview } from '../lifecycle/review-lifecycle';
import { markLanguageSegmentsStale } from '../db/language-segments';
import { replaceSourceSegments } from '../db/source-segments';
import { replaceVerifiedTranscript } from '../db/transcripts';
import type { ReviewerIdentity, ReviewStepResult, ReviewWorkflowStatus } from '../shared/review-contracts';
import { findCueProblem, type ReviewCue } from '../shared/transcript-cues';
import { activityLog } from './activity-log';
import type { EventSettings } from '../lifecycle/project-events';

// The review workflow's writes: each step of a human transcript review, one transaction each,
// under a lock on the review row. Idempotent: a retried activity finds its step done and
// answers the same; a step the review's state no longer allows fails without retrying.

export interface ReviewState {
  status: ReviewWorkflowStatus;
  /** Epoch milliseconds; the workflow waits until then for a verified transcript. */
  deadlineAt: number;
  durationSeconds: number;
  reviewer: string | null;
}

const stepResult = (review: TranscriptReview, at: Date | null): ReviewStepResult => ({ status: review.status, reviewer: review.reviewer, at: (at ?? new Date()).toISOString() });

const refused = (message: string) => ApplicationFailure.nonRetryable(message, 'review_step_refused');

/** The claimant is the key that claimed (editor), or else the name that claimed (console). */
function isClaimant(review: TranscriptReview, who: ReviewerIdentity): boolean {
  if (review.reviewer_key_id !== null) return review.reviewer_key_id === who.reviewerKeyId;
  return who.reviewerKeyId === undefined && review.reviewer === who.reviewer;
}

async function requireReview(trx: Db, projectId: string): Promise<TranscriptReview> {
  const review = await lockReview(trx, projectId);
  if (!review) throw ApplicationFailure.nonRetryable(`project ${projectId} has no transcript review`, 'internal_error');
  return review;
}

export function createReviewActivities({ db, webhooks: events }: { db: Db; webhooks: EventSettings }) {
  return {
    async loadReview(projectId: string): Promise<ReviewState> {
      const review = await findReview(db, projectId);
      if (!review) throw ApplicationFailure.nonRetryable(`project ${projectId} has no transcript review`, 'internal_error');
      const project = await findProjectById(db, projectId);
      return { status: review.status, deadlineAt: review.deadline_at.getTime(), durationSeconds: project?.source_duration_seconds ?? 0, reviewer: review.reviewer };
    },

    /** requested → in_review, recording who took it. */
    async claimReview(input: { projectId: string } & ReviewerIdentity): Promise<ReviewStepResult> {
      return db.transaction().execute(async (trx) => {
        const review = await requireReview(trx, input.projectId);
        if (review.status === 'in_review' && isClaimant(review, input)) return stepResult(review, review.claimed_at);
        if (review.status !== 'requested') throw refused(`the review is ${review.status}${review.reviewer ? ` (${review.reviewer})` : ''}; only a requested review can be claimed`);
        const claimed = await moveReview(trx, review, 'in_review', { reviewer: input.reviewer, reviewer_key_id: input.reviewerKeyId ?? null, claimed_at: new Date() }, events);
        activityLog().info('transcript review claimed', { projectId: input.projectId, reviewer: input.reviewer });
        return stepResult(claimed, claimed.claimed_at);
      });
    },

    /**
     * in_review → verified: the reviewer's transcript (as the record and as the source segments)
     * and the status commit together, so the "current transcript" is verified exactly when the
     * review says so. Checked again here against the stored duration: the database, not the
     * message, is the authority.
     */
    async verifyTranscript(input: { projectId: string; cues: ReviewCue[] } & ReviewerIdentity): Promise<ReviewStepResult> {
      return db.transaction().execute(async (trx) => {
        // The project first, as every writer locks it: the verification appends its event under it.
        await lockExistingProject(trx, input.projectId);
        const review = await requireReview(trx, input.projectId);
        if (review.status === 'verified') return stepResult(review, review.verified_at);
        if (review.status !== 'in_review') throw refused(`the review is ${review.status}; claim it before submitting a transcript`);
        if (!isClaimant(review, input)) throw refused(`the review is claimed by ${review.reviewer}; only they can submit it`);
        const project = await findProjectById(trx, input.projectId);
        const problem = findCueProblem(input.cues, project?.source_duration_seconds ?? 0);
        if (problem) throw ApplicationFailure.nonRetryable(problem, 'invalid_transcript');
        const verifiedCues = input.cues.map((c) => ({ start_seconds: c.startSeconds, end_seconds: c.endSeconds, text: c.text.trim() }));
        await replaceVerifiedTranscript(trx, input.projectId, verifiedCues);
        // The verified transcript is what the dub is made from now: a new script, so every line
        // made from the old one is stale, and the free re-dub builds one per new segment.
        await replaceSourceSegments(trx, input.projectId, verifiedCues, 'verified');
        await markLanguageSegmentsStale(trx, input.projectId);
        const verified = await moveReview(trx, review, 'verified', { verified_at: new Date() }, events);
        activityLog().info('transcript verified', { projectId: input.projectId, reviewer: input.reviewer, cues: input.cues.length });
        return stepResult(verified, verified.verified_at);
      });
    },

    /** A review not verified by its deadline: refunded once (`<project>:review:refund`), then `expired`. */
    async expireReview(projectId: string): Promise<{ status: ReviewWorkflowStatus; refundedCredits: number }> {
      return db.transaction().execute(async (trx) => {
        const review = await requireReview(trx, projectId);
        if (review.status !== 'requested' && review.status !== 'in_review') return { status: review.status, refundedCredits: review.refunded_credits };
        await refundCredits(trx, { workspaceId: review.workspace_id, reference: reviewRefundReference(projectId), amount: review.credits, projectId, description: 'transcript review expired' });
        const expired = await moveReview(trx, review, 'expired', { expired_at: new Date(), refunded_credits: review.credits }, events);
        activityLog().info('transcript review expired and refunded', { projectId, credits: review.credits });
        return { status: expired.status, refundedCredits: expired.refunded_credits };
      });
    },
  };
}

export type ReviewActivities = ReturnType<typeof createReviewActivities>;
