import type { Client } from '@temporalio/client';
import { languagesAddedSignal } from '../shared/project-contracts';
import { signalWithStartProjectWorkflow } from './start-project-workflow';

/**
 * Tells the project's workflow that languages were added, starting a new run when the last one
 * has ended (never two runs at once). Safe to repeat: the workflow runs each open language once
 * per run, and a new run starts from what the database says is done.
 */
export function signalLanguagesAdded(temporal: Client, options: { taskQueue: string; timeoutMs: number }, project: { id: string; workspace_id: string }, locales: string[]): Promise<void> {
  return signalWithStartProjectWorkflow(temporal, options, project, languagesAddedSignal, [{ locales }]);
}
