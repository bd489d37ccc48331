import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ReviewCue } from './transcript-cues';

// What the console and the review workflow agree on. Pure definitions: safe in workflow code.

export interface TranscriptReviewWorkflowInput {
  projectId: string;
}

export type ReviewWorkflowStatus = 'requested' | 'in_review' | 'verified' | 'expired';

export interface TranscriptReviewResult {
  status: ReviewWorkflowStatus;
  /** Completed languages dubbed again from the verified transcript. */
  redubbed: string[];
  /** Re-dubs that failed: those languages keep their earlier files. */
  redubFailed: string[];
}

/**
 * Who takes or submits a review: a reviewer key in the editor (its id and name), or a name given
 * at the console. Only the claimant may submit (docs/editing.md#reviewers).
 */
export interface ReviewerIdentity {
  reviewer: string;
  /** The reviewer key, when the step came through the API; absent from the console. */
  reviewerKeyId?: string;
}

export type ClaimReviewInput = ReviewerIdentity;

export interface SubmitTranscriptInput extends ReviewerIdentity {
  cues: ReviewCue[];
}

export interface ReviewStepResult {
  status: ReviewWorkflowStatus;
  reviewer: string | null;
  /** ISO 8601. */
  at: string;
}

/** `reviews:claim`: a reviewer takes a requested review (→ in_review). */
export const claimReviewUpdate = defineUpdate<ReviewStepResult, [ClaimReviewInput]>('claimReview');

/** `reviews:submit`: the corrected transcript (→ verified), then the completed languages are re-dubbed. */
export const submitTranscriptUpdate = defineUpdate<ReviewStepResult, [SubmitTranscriptInput]>('submitTranscript');

/**
 * Sent to a verified review's workflow when the project emitted news (a language ended): a
 * re-dub waiting for languages still running from the machine transcript looks again.
 */
export const projectLanguagesChangedSignal = defineSignal('projectLanguagesChanged');
