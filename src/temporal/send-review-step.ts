import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { claimReviewUpdate, submitTranscriptUpdate, type ClaimReviewInput, type ReviewStepResult, type SubmitTranscriptInput } from '../shared/review-contracts';
import { transcriptReviewWorkflowId } from '../shared/workflow-ids';
import { startReviewWorkflow } from './start-review-workflow';

/** The review workflow refused the step (a wrong state, not the claimant, an invalid transcript); the message says why. */
export class ReviewStepRefused extends Error {}

export type ReviewStep = { claim: ClaimReviewInput } | { submit: SubmitTranscriptInput };

/**
 * Sends one reviewer step, claim or submit, as an update on the project's review workflow
 * (`project/<id>/review`), from the console or the editor alike. A review whose workflow is
 * missing (its start was lost to an outage) has it started first: the workflow reads its state
 * from the database.
 */
export async function sendReviewStep(
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number },
  review: { project_id: string; workspace_id: string },
  step: ReviewStep,
): Promise<ReviewStepResult> {
  const handle = temporal.workflow.getHandle(transcriptReviewWorkflowId(review.project_id));
  const send = () => ('claim' in step ? handle.executeUpdate(claimReviewUpdate, { args: [step.claim] }) : handle.executeUpdate(submitTranscriptUpdate, { args: [step.submit] }));
  try {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await startReviewWorkflow(temporal, options, { id: review.project_id, workspace_id: review.workspace_id });
      return await send();
    }
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw new ReviewStepRefused(err.cause?.message ?? err.message);
    throw err;
  }
}
