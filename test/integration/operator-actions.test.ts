import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { runConsole } from '../../src/cli/console';
import { getBalance } from '../../src/db/credits';
import { createLocalEngines, type Engines, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { languageWorkflowId, projectWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { heldSpeech } from '../helpers/gated-speech';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';

// What an operator does from the Temporal Web UI (terminate, cancel, reset), done through the
// real client against the real dev server and worker: the project still ends, each language is
// refunded at most once, a completed language is never re-run, and a reset of a failed language
// behaves like the console retry.

const CPS = 10;
const suite = dubbingSuite('operator-', 'The garden is green and the sky is blue today.', { beforeWorkerStop: () => gate?.open() });

const useWorker = (engines: Partial<Engines> = {}) => suite.worker.use(engines);
const getProject = (tenant: TestTenant, id: string) => getProjectView(suite.api, tenant, id);
const waitForProject = (tenant: TestTenant, id: string, what: string, test: (p: any) => boolean) => waitForProjectView(suite.api, tenant, id, what, test);
const language = (project: any, locale: string) => project.languages.find((l: any) => l.locale === locale);
const ledger = async (projectId: string) =>
  (await suite.api.db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute()).map(
    (r) => `${r.kind}:${r.amount}:${r.reference.slice(projectId.length + 1)}`,
  );

/** Catalan's speech waits at a gate the test opens: the language is caught mid-dub. */
let gate: ReturnType<typeof heldSpeech> | undefined;

async function startDub(tenant: TestTenant) {
  const created = await createProject(suite.api, tenant, projectBody({ target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'garden.mp4', size_bytes: suite.clip.length } }));
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, suite.clip)).status).toBe(200);
  return created.body.data.id as string;
}

/** A project dubbing es_es and ca_es, caught with Catalan mid-dub (and, by default, Spanish done). */
async function caughtMidDub({ waitForSpanish = true } = {}) {
  await useWorker({ tts: (gate = heldSpeech('ca_es')).speech });
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await startDub(tenant);
  await gate!.reached;
  if (waitForSpanish) await waitForProject(tenant, id, 'es_es completed', (p) => language(p, 'es_es')?.status === 'completed');
  return { tenant, id };
}

async function retryFromConsole(projectId: string, locale: string): Promise<{ code: number; out: string }> {
  const printed: string[] = [];
  process.env.TEMPORAL_TASK_QUEUE = suite.api.config.temporal.taskQueue;
  try {
    const code = await runConsole(['languages:retry', projectId, locale], (line) => printed.push(line));
    return { code, out: printed.join('\n') };
  } finally {
    delete process.env.TEMPORAL_TASK_QUEUE;
  }
}

it('item 3: terminating a language mid-dub still ends the project, refunds that language once, and leaves it retryable', async () => {
  const { tenant, id } = await caughtMidDub();

  await suite.api.temporal.workflow.getHandle(languageWorkflowId(id, 'ca_es')).terminate('operator terminated it from the Web UI');
  const ended = await waitForProject(tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed');
  const billable: number = ended.usage.billable_seconds;
  expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'terminated' }, usage: { charged_seconds: billable, refunded_seconds: billable } });
  expect(ended.usage).toMatchObject({ state: 'charged', charged_seconds: billable, refunded_seconds: billable });
  expect(await ledger(id)).toEqual([`hold:${60 * 2 * CPS}:hold`, `capture:${billable * 2 * CPS}:capture`, `release:${(60 - billable) * 2 * CPS}:release`, `refund:${billable * CPS}:ca_es:refund`]);

  // Retryable: an operator's termination was the platform's doing, so the console retry is
  // free (docs/money.md#retrying-a-failed-language) and completes it; the refund stands.
  gate!.open();
  const retried = await retryFromConsole(id, 'ca_es');
  expect(retried).toMatchObject({ code: 0 });
  expect(retried.out).toContain('ca_es: completed');
  const done = await getProject(tenant, id);
  expect(done.status).toBe('completed');
  expect(await ledger(id)).toEqual([`hold:${60 * 2 * CPS}:hold`, `capture:${billable * 2 * CPS}:capture`, `release:${(60 - billable) * 2 * CPS}:release`, `refund:${billable * CPS}:ca_es:refund`]);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });
}, 180_000);

it('item 3: cancelling a language mid-dub fails it as cancelled, refunded once, and the project ends', async () => {
  const { tenant, id } = await caughtMidDub();

  await suite.api.temporal.workflow.getHandle(languageWorkflowId(id, 'ca_es')).cancel();
  const ended = await waitForProject(tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed');
  const billable: number = ended.usage.billable_seconds;
  expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'cancelled' }, usage: { refunded_seconds: billable } });
  const refunds = (await ledger(id)).filter((entry) => entry.startsWith('refund:'));
  expect(refunds).toEqual([`refund:${billable * CPS}:ca_es:refund`]);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });
}, 180_000);

it('item 3: cancelling the project workflow mid-dub cancels its open languages, refunds them once, and ends the project', async () => {
  const { tenant, id } = await caughtMidDub();

  await suite.api.temporal.workflow.getHandle(projectWorkflowId(id)).cancel();
  const ended = await waitForProject(tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed');
  const billable: number = ended.usage.billable_seconds;
  expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'cancelled' }, usage: { refunded_seconds: billable } });
  expect(language(ended, 'es_es')).toMatchObject({ status: 'completed' });
  expect((await ledger(id)).filter((entry) => entry.startsWith('refund:'))).toEqual([`refund:${billable * CPS}:ca_es:refund`]);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });
}, 180_000);

it('guard: terminating the project workflow leaves its languages running; they finish and settle the project', async () => {
  const { tenant, id } = await caughtMidDub({ waitForSpanish: false });

  await suite.api.temporal.workflow.getHandle(projectWorkflowId(id)).terminate('operator terminated the project workflow');
  gate!.open();
  const done = await waitForProject(tenant, id, 'project completed', (p) => p.status === 'completed');
  const billable: number = done.usage.billable_seconds;
  expect(done.usage).toMatchObject({ state: 'charged', charged_seconds: billable * 2, refunded_seconds: 0 });
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * 2 * CPS, reserved: 0 });
}, 180_000);

/** Resets a workflow's latest run to a workflow-task-completed event the picker chooses; returns the new run id. */
async function reset(client: Client, workflowId: string, pick: (events: any[]) => any): Promise<string> {
  const handle = client.workflow.getHandle(workflowId);
  const { runId } = await handle.describe();
  const events = (await handle.fetchHistory()).events ?? [];
  const target = pick(events);
  const response = await client.workflowService.resetWorkflowExecution({
    namespace: suite.api.config.temporal.namespace,
    workflowExecution: { workflowId, runId },
    reason: 'operator reset from the Web UI',
    workflowTaskFinishEventId: target.eventId,
    requestId: randomUUID(),
  });
  return response.runId!;
}
const firstTaskCompleted = (events: any[]) => events.find((e) => e.workflowTaskCompletedEventAttributes);
const activityNames = async (client: Client, workflowId: string, runId: string) =>
  ((await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [])
    .filter((e: any) => e.activityTaskScheduledEventAttributes)
    .map((e: any) => e.activityTaskScheduledEventAttributes.activityType.name);

it('item 4: resetting a completed language never re-runs or refunds it', async () => {
  await useWorker();
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await startDub(tenant);
  const done = await waitForProject(tenant, id, 'project completed', (p) => p.status === 'completed');
  const before = { ledger: await ledger(id), spanish: language(done, 'es_es') };

  const workflowId = languageWorkflowId(id, 'es_es');
  const runId = await reset(suite.api.temporal, workflowId, firstTaskCompleted);
  expect(await suite.api.temporal.workflow.getHandle(workflowId, runId).result()).toEqual({ locale: 'es_es', status: 'completed' });
  expect(await activityNames(suite.api.temporal, workflowId, runId)).toEqual(['beginLanguageAttempt', 'recordProjectOutcome', 'emitProjectEvents']);
  const after = await getProject(tenant, id);
  expect(after.status).toBe('completed');
  expect(language(after, 'es_es')).toEqual(before.spanish);
  expect(await ledger(id)).toEqual(before.ledger);
}, 180_000);

it('item 4: resetting a failed language past its start behaves like the console retry: charged again, completed, project completed', async () => {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  const brokenCatalan: Translator = { translate: (texts, modes, options) => (modes[modes.length - 1] === 'eng-cat' ? missing : real).translate(texts, modes, options) };
  await useWorker({ translator: brokenCatalan });
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await startDub(tenant);
  const partial = await waitForProject(tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed');
  const billable: number = partial.usage.billable_seconds;

  // The engine is fixed; the operator resets the failed language to just after it started.
  await useWorker();
  const workflowId = languageWorkflowId(id, 'ca_es');
  const runId = await reset(suite.api.temporal, workflowId, (events) => {
    const begun = events.findIndex(
      (e) =>
        e.activityTaskCompletedEventAttributes &&
        events.some(
          (s) => s.eventId?.toString() === e.activityTaskCompletedEventAttributes.scheduledEventId?.toString() && s.activityTaskScheduledEventAttributes?.activityType?.name === 'beginLanguageAttempt',
        ),
    );
    return events.slice(begun).find((e) => e.workflowTaskCompletedEventAttributes);
  });
  expect(await suite.api.temporal.workflow.getHandle(workflowId, runId).result()).toEqual({ locale: 'ca_es', status: 'completed' });

  const done = await getProject(tenant, id);
  expect(done.status).toBe('completed');
  expect(done.usage).toMatchObject({ state: 'charged', charged_seconds: billable * 2, refunded_seconds: billable });
  expect(language(done, 'ca_es')).toMatchObject({ status: 'completed', failure: null });
  expect(language(done, 'ca_es').deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)
  expect(await ledger(id)).toEqual([
    `hold:${60 * 2 * CPS}:hold`,
    `capture:${billable * 2 * CPS}:capture`,
    `release:${(60 - billable) * 2 * CPS}:release`,
    `refund:${billable * CPS}:ca_es:refund`,
    `capture:${billable * CPS}:ca_es:charge:2`,
  ]);
}, 180_000);
