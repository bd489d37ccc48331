import { sql, type ColumnType, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from './create-db';

// One paid human review of a project's English transcript. The public state (status,
// requested_at, verified_at) lives on `projects.transcript_review_*`, which GET shows; this row
// is the operational record behind it. Both change together, in the caller's transaction.

export type ReviewStatus = 'requested' | 'in_review' | 'verified' | 'expired';

export interface TranscriptReviewTable {
  project_id: string;
  workspace_id: string;
  status: ReviewStatus;
  billable_seconds: number;
  credits: number;
  requested_at: ColumnType<Date, Date | undefined, never>;
  deadline_at: Date;
  reviewer: string | null;
  /** The reviewer key that claimed it (migration 0028); null when claimed at the console. */
  reviewer_key_id: string | null;
  claimed_at: Date | null;
  verified_at: Date | null;
  expired_at: Date | null;
  refunded_credits: ColumnType<number, number | undefined, number>;
}

export type TranscriptReview = Selectable<TranscriptReviewTable>;

export const reviewChargeReference = (projectId: string) => `${projectId}:review:charge`;
export const reviewRefundReference = (projectId: string) => `${projectId}:review:refund`;

export async function findReview(db: Db, projectId: string): Promise<TranscriptReview | undefined> {
  return db.selectFrom('transcript_reviews').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

/** The row, locked for the rest of the caller's transaction: review steps never interleave. */
export async function lockReview(trx: Db, projectId: string): Promise<TranscriptReview | undefined> {
  return trx.selectFrom('transcript_reviews').selectAll().where('project_id', '=', projectId).forUpdate().executeTakeFirst();
}

export interface QueuedReview {
  project_id: string;
  workspace_id: string;
  project_name: string;
  status: ReviewStatus;
  reviewer: string | null;
  reviewer_key_id: string | null;
  requested_at: Date;
  deadline_at: Date;
  duration_seconds: number | null;
  age_seconds: number;
}

/** The reviewers' queue: open reviews, oldest first, aged by the database's clock. */
export async function listOpenReviews(db: Db): Promise<QueuedReview[]> {
  return db
    .selectFrom('transcript_reviews as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .select([
      'r.project_id',
      'r.workspace_id',
      'p.name as project_name',
      'r.status',
      'r.reviewer',
      'r.reviewer_key_id',
      'r.requested_at',
      'r.deadline_at',
      'p.source_duration_seconds as duration_seconds',
      sql<number>`floor(extract(epoch from now() - r.requested_at))::int`.as('age_seconds'),
    ])
    .where('r.status', 'in', ['requested', 'in_review'])
    .orderBy('r.requested_at')
    .orderBy('r.project_id')
    .execute();
}

/**
 * Reviews that still need their workflow and have not moved since `staleBefore`: open ones, and
 * verified ones with a completed language still made from the machine transcript (a re-dub is
 * due). Oldest request first, `limit` of them; only the workspace's when one is given.
 */
export async function listStaleReviews(
  db: Db,
  input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number },
): Promise<Pick<TranscriptReview, 'project_id' | 'workspace_id' | 'status'>[]> {
  let reviews = db
    .selectFrom('transcript_reviews as r')
    .select(['r.project_id', 'r.workspace_id', 'r.status'])
    .where((eb) =>
      eb.or([
        eb('r.status', 'in', ['requested', 'in_review']),
        // Verified, with a completed language still made from the machine transcript.
        eb.and([
          eb('r.status', '=', 'verified'),
          eb.exists(
            eb
              .selectFrom('project_languages as l')
              .select('l.locale')
              .whereRef('l.project_id', '=', 'r.project_id')
              .where('l.status', '=', 'completed')
              .where(sql<boolean>`l.transcript_kind is distinct from 'verified'`),
          ),
        ]),
      ]),
    )
    .where(sql<Date>`coalesce(r.verified_at, r.claimed_at, r.requested_at)`, '<', input.staleBefore)
    // A deleted project's re-dub is never started again: nothing of it may run (docs/lifecycle.md#delete).
    .where((eb) => eb.not(eb.exists(eb.selectFrom('projects as p').select('p.id').whereRef('p.id', '=', 'r.project_id').where('p.deleted_at', 'is not', null))));
  if (input.workspaceId) reviews = reviews.where('r.workspace_id', '=', input.workspaceId);
  return reviews.orderBy('r.requested_at').limit(input.limit).execute();
}

/**
 * A review a reviewer key may open (docs/editing.md#reviewers): requested or in review, with the
 * project's name and length. Any other review, and a project without one, reads as absent.
 */
export async function findOpenReview(db: Db, projectId: string): Promise<(TranscriptReview & { project_name: string; duration_seconds: number | null }) | undefined> {
  return db
    .selectFrom('transcript_reviews as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .selectAll('r')
    .select(['p.name as project_name', 'p.source_duration_seconds as duration_seconds'])
    .where('r.project_id', '=', projectId)
    .where('r.status', 'in', ['requested', 'in_review'])
    .executeTakeFirst();
}
