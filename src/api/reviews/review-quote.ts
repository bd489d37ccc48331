import type { Project } from '../../db/projects';
import { ApiError } from '../api-error';

// The price of a human transcript review (docs/design.md#review): the source duration rounded up to whole
// minutes (docs/design.md#money), at the project's credits per second.

export interface ReviewQuote {
  preview_only: boolean;
  already_requested: boolean;
  billable_seconds: number;
  credits: number;
  max_billable_seconds: number;
  within_limit: boolean;
  charged_now_seconds: number;
}

/** The 409s, in the order a caller can act on them: wrong language, too early, nothing to bill. */
export function assertReviewable(project: Project): { billableSeconds: number } {
  if (!project.source_locale.startsWith('en_')) {
    throw ApiError.conflict('transcript_review_unavailable', `Transcript review is offered for English sources only; this project's source is ${project.source_locale}.`);
  }
  if (project.usage_state === 'limit_exceeded' || project.usage_state === 'released' || project.usage_state === 'insufficient_credits') {
    throw ApiError.conflict('project_not_billable', 'This project ended before it was charged; its transcript cannot be reviewed.');
  }
  if (project.billable_seconds === null) {
    throw ApiError.conflict('project_not_ready', 'The source has not been validated yet, so its duration is unknown; quote the review once the project is processing.');
  }
  return { billableSeconds: project.billable_seconds };
}

export function quoteReview(project: Project, billableSeconds: number, request: { maxBillableSeconds: number; previewOnly: boolean }): ReviewQuote {
  // Whole minutes: a 61 s source is billed 120 s. billable_seconds is already ceil(duration).
  const minutes = Math.ceil(billableSeconds / 60) * 60;
  return {
    preview_only: request.previewOnly,
    already_requested: project.transcript_review_status !== 'not_requested',
    billable_seconds: minutes,
    credits: minutes * project.credits_per_second,
    max_billable_seconds: request.maxBillableSeconds,
    within_limit: minutes <= request.maxBillableSeconds,
    charged_now_seconds: 0,
  };
}

/** The project as the preview shows it (docs/design.md#review): its id and review state only. */
export function presentReviewState(project: Project) {
  return { id: project.id, transcript_review: { requested: project.transcript_review_status !== 'not_requested', status: project.transcript_review_status } };
}
