import type { TestTenant } from './fixtures';
import { completedProjectWithSegments, updateLine, type SegmentedProject } from './regenerations';
import { startTestApi, type TestApi } from './test-api';

// The setup shared by the regenerate-language test files: the real app over HTTP, real
// PostgreSQL and the real Temporal dev server, and no worker on the file's task queue, so a
// started regeneration stays running until the file ends it.

export const CPS = 10;
/** Three cues; the middle one lasts 3.05 s (4 billable), while its line was placed in 2.9 s (3). */
export const CUES: [number, number, string][] = [
  [0, 2.5, 'Hello everyone.'],
  [2.5, 5.55, 'Welcome to the kitchen.'],
  [5.55, 9.0, 'Today we cook rice.'],
];

/**
 * Starts the file's API before its tests (handing it to `onStart`) and closes it after them.
 * Answers the list to push every started regeneration workflow's id to: they are terminated
 * after the file's tests.
 */
export function regenerateLanguageSuite(onStart: (api: TestApi) => void): string[] {
  let api: TestApi | undefined;
  const started: string[] = [];
  beforeAll(async () => {
    api = await startTestApi();
    onStart(api);
  }, 60_000);
  afterAll(async () => {
    // Nothing runs them here; end them so the dev server is left clean.
    for (const id of started)
      await api!.temporal.workflow
        .getHandle(id)
        .terminate('test done')
        .catch(() => undefined);
    await api?.close();
  });
  return started;
}

export async function workflowStatus(api: TestApi, workflowId: string): Promise<string> {
  try {
    return (await api.temporal.workflow.getHandle(workflowId).describe()).status.name;
  } catch {
    return 'not started';
  }
}

/** The input the workflow was started with, from the first event of its history. */
export async function startInput(api: TestApi, workflowId: string): Promise<unknown> {
  const history = await api.temporal.workflow.getHandle(workflowId).fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return JSON.parse(Buffer.from(payload.data!).toString('utf8'));
}

export async function projectWithStaleLine(api: TestApi, tenant: TestTenant): Promise<SegmentedProject> {
  const project = await completedProjectWithSegments(api.db, tenant, { cues: CUES, creditsPerSecond: CPS });
  // The source segment was edited: its line goes stale (its text still what was played).
  await updateLine(api.db, project.lines[1]!, { status: 'stale' });
  return project;
}
