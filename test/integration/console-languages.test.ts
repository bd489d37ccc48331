import { randomUUID } from 'node:crypto';
import { consoleRun } from '../helpers/console-run';
import { languageWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant } from '../helpers/fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';

// languages:retry on the real Temporal dev server. The task queue has no worker, so the started
// attempt stays pending and its start input can be read back from the workflow history.

let api: TestApi;
const taskQueue = `no-worker-${randomUUID()}`;
beforeAll(async () => {
  api = await startTestApi();
  process.env.TEMPORAL_TASK_QUEUE = taskQueue; // what the console's config reads
});
afterAll(async () => {
  delete process.env.TEMPORAL_TASK_QUEUE;
  await api.close();
});

/** A project whose languages all failed on their first attempt. */
async function projectWithFailedLanguages(locales: string[], credits = 10_000, failureCode = 'source_failed'): Promise<string> {
  const { workspace } = await createTenant(api.db, { credits });
  const id = randomUUID();
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: workspace.id,
      name: 'retry me',
      source_type: 'upload',
      source_file_name: 'retry-me.mp4',
      source_size_bytes: 1_000_000,
      source_locale: 'en_us',
      target_locales: locales,
      status: 'partially_completed',
      phase: 'completed',
      max_billable_seconds: 60,
      credits_per_second: 10,
      billable_seconds: 30,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  await api.db
    .insertInto('project_languages')
    .values(locales.map((locale) => ({ project_id: id, locale, status: 'failed' as const, failure_code: failureCode, failure_message: 'it failed' })))
    .execute();
  return id;
}

async function startInput(workflowId: string): Promise<Record<string, unknown>> {
  const handle = api.temporal.workflow.getHandle(workflowId);
  const history = await handle.fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  await handle.terminate('test done');
  return JSON.parse(Buffer.from(payload.data!).toString('utf8')) as Record<string, unknown>;
}

describe('console: languages:retry', () => {
  it('item 20: --goodwill starts the next attempt with billing "goodwill"; without it the retry is charged', async () => {
    const projectId = await projectWithFailedLanguages(['ca_es', 'gl_es']);

    const free = await consoleRun('languages:retry', projectId, 'ca_es', '--goodwill', '--no-wait');
    expect(free.code).toBe(0);
    expect(free.out).toContain(`started attempt 2 of ${languageWorkflowId(projectId, 'ca_es')}`);
    expect(await startInput(languageWorkflowId(projectId, 'ca_es'))).toEqual({ projectId, locale: 'ca_es', attempt: 2, billing: 'goodwill' });

    const paid = await consoleRun('languages:retry', projectId, 'gl_es', '--no-wait');
    expect(paid.code).toBe(0);
    expect(await startInput(languageWorkflowId(projectId, 'gl_es'))).toEqual({ projectId, locale: 'gl_es', attempt: 2, billing: 'charge' });
  });

  it("the platform's failure (engine_failed) is retried free, whatever the balance (docs/money.md#retrying-a-failed-language)", async () => {
    const projectId = await projectWithFailedLanguages(['ca_es'], 0, 'engine_failed');
    const free = await consoleRun('languages:retry', projectId, 'ca_es', '--no-wait');
    expect(free.code).toBe(0);
    expect(free.out).toContain("free: engine_failed was the platform's failure");
    expect(await startInput(languageWorkflowId(projectId, 'ca_es'))).toEqual({ projectId, locale: 'ca_es', attempt: 2, billing: 'free' });
  });

  it('item 20: a language the project does not have is refused at run time (exit 1, one line); a malformed locale is a usage error, refused before any lookup', async () => {
    const projectId = await projectWithFailedLanguages(['ca_es']);
    const missing = await consoleRun('languages:retry', projectId, 'fr_fr', '--no-wait');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`error: project ${projectId} has no language fr_fr`);
    expect(missing.stdout).toBe('');
    const malformed = await consoleRun('languages:retry', projectId, 'ca-ES', '--no-wait');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("value 'ca-ES' is invalid for argument 'locale'");
    expect(malformed.stderr).toContain('Usage: npm run console -- languages:retry');
  });

  it('item 5: a charged retry the workspace cannot pay for is refused with the figures, starting nothing; --goodwill still runs', async () => {
    const projectId = await projectWithFailedLanguages(['ca_es'], 100); // a retry costs 30 s × 10 = 300 credits
    const refused = await consoleRun('languages:retry', projectId, 'ca_es', '--no-wait');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('retrying ca_es costs 300 credits (30 s × 10); the workspace has 100 available');
    await expect(api.temporal.workflow.getHandle(languageWorkflowId(projectId, 'ca_es')).describe()).rejects.toThrow(/not found/i);
    const ledger = await api.db.selectFrom('credit_ledger').select('kind').where('project_id', '=', projectId).execute();
    expect(ledger).toEqual([]);

    const free = await consoleRun('languages:retry', projectId, 'ca_es', '--goodwill', '--no-wait');
    expect(free.code).toBe(0);
    expect(await startInput(languageWorkflowId(projectId, 'ca_es'))).toMatchObject({ attempt: 2, billing: 'goodwill' });
  });
});
