import { executeChild, ParentClosePolicy, proxyActivities, setHandler } from '@temporalio/workflow';
import type { OutcomeActivities } from '../activities/outcome.activities';
import type { ProjectActivities } from '../activities/project.activities';
import { uploadCompletedSignal, type ProjectWorkflowInput } from '../shared/project-contracts';
import { languageSearchAttributes } from '../shared/search-attributes';
import { languageWorkflowId } from '../shared/workflow-ids';
import { LONG_MEDIA_STEP, SHORT_DB_STEP } from './activity-profiles';
import { languageWorkflow } from './language.workflow';

const db = proxyActivities<ProjectActivities & OutcomeActivities>(SHORT_DB_STEP);
const media = proxyActivities<ProjectActivities>(LONG_MEDIA_STEP);

/**
 * One dubbing project: `project/<id>`. Validates the source, enforces the spend ceiling,
 * charges once, transcribes once, then runs one child per language.
 */
export async function projectWorkflow({ projectId }: ProjectWorkflowInput): Promise<{ status: string }> {
  // Upload projects are started by upload/complete through signalWithStart; the signal only
  // says so. Abandoned uploads never get a workflow: the upload-expiry schedule settles them.
  setHandler(uploadCompletedSignal, () => undefined);

  const start = await db.loadProjectStart(projectId);
  if (start.status === 'failed' || start.status === 'completed' || start.status === 'partially_completed') return { status: start.status };

  if (start.sourceType === 'youtube') {
    await db.failProject({ projectId, code: 'source_unavailable', message: 'Fetching media from YouTube is not available yet; upload the video file instead. The credit hold was released.', usageState: 'released' });
    return { status: 'failed' };
  }

  if (start.status === 'awaiting_upload') {
    // Only reachable if someone starts this workflow by hand before the upload completed.
    return { status: start.status };
  }

  const source = await media.prepareSource(projectId);
  if (!source.ok) {
    await db.failProject({ projectId, code: 'invalid_media', message: source.message, usageState: 'released' });
    return { status: 'failed' };
  }

  const charge = await db.settleCharges({ projectId, durationSeconds: source.durationSeconds });
  if (charge.outcome === 'limit_exceeded') return { status: 'failed' };

  await media.transcribeSource(projectId);
  await db.setProjectPhase({ projectId, phase: 'dubbing' });

  await Promise.all(
    start.targetLocales.map((locale) =>
      executeChild(languageWorkflow, {
        workflowId: languageWorkflowId(projectId, locale),
        args: [{ projectId, locale, attempt: 1 }],
        // A language keeps running if the project workflow is terminated by an operator.
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: languageSearchAttributes(projectId, start.workspaceId, locale),
      }),
    ),
  );
  return { status: await db.recordProjectOutcome(projectId) };
}
