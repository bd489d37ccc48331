import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { languageWorkflowId, projectWorkflowId, regenerationWorkflowId, transcriptReviewWorkflowId } from '../shared/workflow-ids';
import { withTemporalDeadline } from './temporal-unavailable';

// Whether anything of a project still runs, asked of Temporal, which knows (docs/lifecycle.md#delete).
// Every piece of a project's work is one of its workflows, and a workflow closes only once its
// media activities have stopped (they wait for a cancel to complete: src/workflows/media-route.ts),
// so "every workflow of the project is closed" means no activity of it runs either. Described one
// by one (strongly consistent), not listed through visibility, which lags.

/** What names a project's workflows: its locales, and each language's latest regeneration. */
export interface ProjectWorkflowSubjects {
  projectId: string;
  locales: readonly string[];
  /** The latest regeneration of each language that has one: an earlier one ended before it was committed. */
  regenerations: readonly { locale: string; number: number }[];
}

export function projectWorkflowIds({ projectId, locales, regenerations }: ProjectWorkflowSubjects): string[] {
  return [
    projectWorkflowId(projectId),
    ...locales.map((locale) => languageWorkflowId(projectId, locale)),
    transcriptReviewWorkflowId(projectId),
    ...regenerations.map((r) => regenerationWorkflowId(projectId, r.locale, r.number)),
  ];
}

/** How long a settling project is waited for, and how often it is asked again meanwhile. */
export interface SettleWait {
  callTimeoutMs: number;
  /** How long to wait for running workflows to close (0: answer at once). */
  waitMs: number;
  pollMs?: number;
}

/**
 * The ids of the project's workflows still running, after waiting up to `waitMs` for them to
 * close: an ended project's workflows finish their last step (its webhook events) a moment
 * after the status they wrote. Empty when nothing runs.
 */
export async function runningProjectWorkflows(temporal: Client, subjects: ProjectWorkflowSubjects, wait: SettleWait): Promise<string[]> {
  const deadline = Date.now() + wait.waitMs;
  let pending = projectWorkflowIds(subjects);
  for (;;) {
    const statuses = await Promise.all(pending.map(async (id) => ((await isRunning(temporal, wait.callTimeoutMs, id)) ? id : undefined)));
    pending = statuses.filter((id): id is string => id !== undefined);
    if (pending.length === 0 || Date.now() >= deadline) return pending;
    await new Promise((resolve) => setTimeout(resolve, Math.min(wait.pollMs ?? 250, Math.max(0, deadline - Date.now()))));
  }
}

async function isRunning(temporal: Client, timeoutMs: number, workflowId: string): Promise<boolean> {
  try {
    const described = await withTemporalDeadline(temporal.connection, timeoutMs, () => temporal.workflow.getHandle(workflowId).describe());
    return described.status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
