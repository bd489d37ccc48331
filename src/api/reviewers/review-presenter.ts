import type { SourceSegment } from '../../db/source-segments';
import type { QueuedReview, TranscriptReview } from '../../db/transcript-reviews';
import { presentSourceSegment } from '../transcripts/segment-presenter';
import type { ReviewerContext } from '../middleware/authenticate';

// What a reviewer sees of a review (docs/editing.md#reviewers): the project's name and length,
// where the review stands and who holds it; never the customer's workspace, usage or languages.

type ReviewFields = Pick<TranscriptReview, 'project_id' | 'status' | 'reviewer' | 'reviewer_key_id' | 'requested_at' | 'deadline_at'> & { project_name: string; duration_seconds: number | null };

function presentReviewFields(review: ReviewFields, caller: ReviewerContext) {
  return {
    project_id: review.project_id,
    project_name: review.project_name,
    status: review.status,
    reviewer: review.reviewer,
    claimed_by_you: review.status === 'in_review' && review.reviewer_key_id === caller.keyId,
    requested_at: review.requested_at.toISOString(),
    deadline_at: review.deadline_at.toISOString(),
    source_duration_seconds: review.duration_seconds,
  };
}

export function presentQueuedReview(review: QueuedReview, caller: ReviewerContext) {
  return presentReviewFields(review, caller);
}

/** One review opened: its fields, the transcript to correct and the speech to listen to. */
export function presentOpenReview(review: ReviewFields, caller: ReviewerContext, segments: SourceSegment[], sourceAudioUrl: string | null) {
  return { ...presentReviewFields(review, caller), source_audio_url: sourceAudioUrl, segments: segments.map((s) => presentSourceSegment(s)) };
}
