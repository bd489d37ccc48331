import type { Client } from '@temporalio/client';
import type { TranscriptReviewWorkflowInput } from '../shared/review-contracts';
import { projectSearchAttributes } from '../shared/search-attributes';
import { transcriptReviewWorkflowId } from '../shared/workflow-ids';
import type { transcriptReviewWorkflow } from '../workflows/transcript-review.workflow';
import { startOnce } from './start-once';

/**
 * Starts the project's review workflow, `project/<id>/review`; a second start while it runs is
 * a no-op. Called only after the charge committed, and again by a retried or repeated request
 * while the review is open, so a start lost to a crash or an outage (503) is made good.
 */
export async function startReviewWorkflow(temporal: Client, options: { taskQueue: string; timeoutMs: number }, project: { id: string; workspace_id: string }): Promise<void> {
  const input: TranscriptReviewWorkflowInput = { projectId: project.id };
  await startOnce<typeof transcriptReviewWorkflow>(temporal, options.timeoutMs, 'transcriptReviewWorkflow', {
    taskQueue: options.taskQueue,
    workflowId: transcriptReviewWorkflowId(project.id),
    args: [input],
    typedSearchAttributes: projectSearchAttributes(project.id, project.workspace_id),
  });
}
