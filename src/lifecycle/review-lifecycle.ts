import type { Db } from '../db/create-db';
import type { TranscriptReview } from '../db/transcript-reviews';
import { insertReview, setReviewStatus } from '../db/status-writes';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database';
import { appendProjectEvents, projectEvent, type EventSettings } from './project-events';
import { assertMove, type StateOf } from './transition-table';

// A transcript review's transitions (docs/transcript-review.md, docs/design.md#lifecycle): opened
// paid, claimed by a reviewer, verified or expired (refunded by the caller, in the same
// transaction). The review row and the project's public mirror of it change together.

/** [*] → requested: the review row and the project's `transcript_review` state, in the transaction that charged it. */
export async function openReview(trx: Db, row: Parameters<typeof insertReview>[1]): Promise<TranscriptReview> {
  return insertReview(trx, row);
}

/** The locked review moves to `status` (in_review, verified, expired), mirrored onto the project row; verified is news. */
export async function moveReview(
  trx: Transaction<Database>,
  review: Pick<TranscriptReview, 'project_id' | 'status'>,
  status: Exclude<StateOf<'review'>, 'requested'>,
  changes: Parameters<typeof setReviewStatus>[3],
  events: EventSettings,
): Promise<TranscriptReview> {
  assertMove('review', review.project_id, review.status, status);
  const moved = await setReviewStatus(trx, review.project_id, status, changes);
  if (status === 'verified') await appendProjectEvents(trx, review.project_id, [projectEvent.reviewVerified()], events);
  return moved;
}
