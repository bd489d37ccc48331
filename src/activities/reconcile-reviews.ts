import type { RawBuilder } from 'kysely';
import type { Db } from '../db/create-db';
import { listStaleReviews } from '../db/transcript-reviews';
import { transcriptReviewWorkflowId } from '../shared/workflow-ids';
import type { WorkflowGateway } from '../temporal/workflow-gateway';
import type { Repair } from './reconciler.activities';

// The reconciler's pass over transcript reviews. A review's workflow is what expires (and
// refunds) it and what re-dubs after verification, so a review left without one (its start lost
// to an outage and never retried, a terminated run) is started again. The workflow is re-entrant:
// it expires an overdue review at once, refunding once, and re-dubs only what is still due.

const BATCH = 200;

export interface ReviewPassDeps {
  db: Db;
  workflows: WorkflowGateway;
  staleBefore: RawBuilder<Date>;
  workspaceId?: string;
  isRunning(workflowId: string): Promise<boolean>;
  recordOnce(repair: Repair): Promise<boolean>;
  attempt(subject: string, work: () => Promise<Repair | undefined>): Promise<void>;
}

export async function reconcileReviews({ db, workflows, staleBefore, workspaceId, isRunning, recordOnce, attempt }: ReviewPassDeps): Promise<void> {
  for (const review of await listStaleReviews(db, { staleBefore, workspaceId, limit: BATCH })) {
    const subject = transcriptReviewWorkflowId(review.project_id);
    await attempt(subject, async () => {
      if (await isRunning(subject)) return undefined;
      const repair = { subject, kind: review.status === 'verified' ? 'restart_review_redub' : 'restart_review_workflow', detail: `review ${review.status} with no running workflow; started it again` };
      // An open review is always worth restarting (its deadline and refund depend on it); a
      // re-dub that keeps failing is restarted once, then left for an operator.
      if (!(await recordOnce(repair)) && review.status === 'verified') return undefined;
      await workflows.startReview({ id: review.project_id, workspace_id: review.workspace_id });
      return repair;
    });
  }
}
