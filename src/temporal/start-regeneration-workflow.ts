import type { Client } from '@temporalio/client';
import type { RegenerationWorkflowInput } from '../shared/regeneration-contracts';
import { languageSearchAttributes } from '../shared/search-attributes';
import { regenerationWorkflowId } from '../shared/workflow-ids';
import type { regenerateLanguageWorkflow } from '../workflows/regenerate-language.workflow';
import { startOnce } from './start-once';

/** One committed regeneration: its row, and its number among the language's regenerations. */
export interface RegenerationRun {
  regenerationId: string;
  projectId: string;
  workspaceId: string;
  locale: string;
  /** `n` in `project/<id>/lang/<locale>/regen/<n>`. */
  number: number;
}

/**
 * Starts a paid regeneration's workflow (docs/editing.md#regenerate) and returns its id. Called
 * only after the charge committed, and again by a retried request that finds the charge's
 * recovery point, so a start lost to a crash or an outage (503) is made good. A second start is
 * a no-op while the run is open, and refused once it closed (REJECT_DUPLICATE): a regeneration
 * is paid once, so it runs once.
 */
export async function startRegenerationWorkflow(temporal: Client, options: { taskQueue: string; timeoutMs: number }, run: RegenerationRun): Promise<string> {
  const workflowId = regenerationWorkflowId(run.projectId, run.locale, run.number);
  const input: RegenerationWorkflowInput = { regenerationId: run.regenerationId, projectId: run.projectId, locale: run.locale };
  await startOnce<typeof regenerateLanguageWorkflow>(temporal, options.timeoutMs, 'regenerateLanguageWorkflow', {
    taskQueue: options.taskQueue,
    workflowId,
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [input],
    typedSearchAttributes: languageSearchAttributes(run.projectId, run.workspaceId, run.locale),
  });
  return workflowId;
}
