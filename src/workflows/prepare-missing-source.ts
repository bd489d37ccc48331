import { proxyActivities } from '@temporalio/workflow';
import type { ProjectActivities } from '../activities/project.activities';
import type { SourceReadinessActivities } from '../activities/source-readiness.activities';
import { SHORT_DB_STEP } from './activity-profiles';
import { mediaActivitiesFor } from './media-route';

const db = proxyActivities<SourceReadinessActivities>(SHORT_DB_STEP);

/** The patch a language run records when it checks its source before planning lines. */
export const PREPARE_MISSING_SOURCE = 'language-prepares-missing-source';

/**
 * Runs the project's source steps (extract the speech, recognize it) for a language whose
 * project never finished them: recognition failed after the charge, every language failed, and
 * this run is a retry (API, console, or a Web UI reset). Without it the language would plan zero
 * lines from no transcript and publish silence. On the pool that transcribes the source locale,
 * as the project workflow runs them; a failure here fails the language like any step's.
 */
export async function prepareMissingSource(projectId: string): Promise<void> {
  const source = await db.loadSourceReadiness(projectId);
  if (source.ready) return;
  const { activities } = await mediaActivitiesFor<ProjectActivities>({ locale: source.sourceLocale, role: 'source' });
  await activities.transcribeSource(projectId);
}
