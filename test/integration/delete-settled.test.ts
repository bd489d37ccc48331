import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLocalEngines, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { claimReviewUpdate, submitTranscriptUpdate } from '../../src/shared/review-contracts';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { gatedSpeech, heldSpeech } from '../helpers/gated-speech';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { QueryHook, selectFrom } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// DELETE only once nothing of the project runs (docs/lifecycle.md#delete), on the real API,
// PostgreSQL, Temporal dev server, worker, engines and local storage: a cancelled language whose
// media step is still running, and a re-dub after a verified review, are work in flight; after
// the 200 the storage holds no file of the project, no deliverable row is left and no webhook
// event follows project.deleted.

const CPS = 10;
let opened: (() => void) | undefined;
const suite = dubbingSuite('delete-settled-', 'The garden is green and the sky is blue today.', { beforeWorkerStop: () => opened?.() });
const api = () => suite.api;
/** A second app on the same queue whose queries a test can hold (QueryHook). */
const hook = new QueryHook();
let hookedApi: TestApi;
beforeAll(async () => {
  hookedApi = await startTestApi({ TEMPORAL_TASK_QUEUE: suite.api.config.temporal.taskQueue }, [hook]);
}, 60_000);
afterAll(async () => {
  await hookedApi?.close();
});

const remove = (tenant: TestTenant, id: string) => request(api().baseUrl, 'DELETE', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) });
const cancel = (tenant: TestTenant, id: string) => request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/cancel`, { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() } });
const events = async (projectId: string): Promise<string[]> =>
  (await api().db.selectFrom('webhook_events').select('type').where('project_id', '=', projectId).orderBy('sequence').execute()).map((e) => e.type);
const deliverableRows = async (projectId: string) => (await api().db.selectFrom('deliverables').select('storage_key').where('project_id', '=', projectId).execute()).length;
const language = (project: any, locale: string) => project.languages.find((l: any) => l.locale === locale);

/** Every file the local store holds under the project's folder and its uploads' folders. */
function storedFiles(projectId: string, uploadIds: readonly string[]): string[] {
  const root = api().config.storage.localDir;
  const walk = (dir: string): string[] =>
    !existsSync(dir) ? [] : readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.relative(root, path.join(dir, name))]));
  return [...walk(path.join(root, 'projects', projectId)), ...uploadIds.flatMap((id) => walk(path.join(root, 'uploads', id)))];
}

async function startDub(tenant: TestTenant, targets: string[]): Promise<{ id: string; uploadIds: string[] }> {
  const created = await createProject(api(), tenant, projectBody({ target_locales: targets, source: { type: 'upload', file_name: 'garden.mp4', size_bytes: suite.clip.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(api(), tenant, created.body.data, suite.clip)).status).toBe(200);
  const uploads = await api().db.selectFrom('uploads').select('id').where('project_id', '=', created.body.data.id).execute();
  return { id: created.body.data.id as string, uploadIds: uploads.map((u) => u.id) };
}

/** DELETE until it answers something else than 409 (each 409 a project_in_progress); that answer. */
async function deleteOnceSettled(tenant: TestTenant, id: string, timeoutMs: number) {
  return waitFor(
    'DELETE to stop answering 409',
    async () => {
      const answer = await remove(tenant, id);
      if (answer.status !== 409) return answer;
      expect(answer.body.error).toMatchObject({ type: 'conflict_error', code: 'project_in_progress' });
      return undefined;
    },
    timeoutMs,
    500,
  );
}

/** After the 200: a while later, nothing of the project in storage or the tables, and no event after project.deleted. */
async function expectNothingLeft(id: string, uploadIds: readonly string[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 4000));
  expect(storedFiles(id, uploadIds)).toEqual([]);
  expect(await deliverableRows(id)).toBe(0);
  const written = await events(id);
  expect(written[written.length - 1]).toBe('project.deleted');
  expect(written.filter((type) => type === 'project.deleted')).toHaveLength(1);
}

describe('DELETE waits until nothing of the project runs', () => {
  it("cancelled mid-dub: 409 while the cancelled language's media step still runs, 200 once it stopped; then no file, row or event of it", async () => {
    // Catalan's speech is held, and goes on holding after the cancel: a media step slow to stop.
    const gate = heldSpeech('ca_es', { ignoresCancel: true });
    opened = gate.open;
    await suite.worker.use({ tts: gate.speech });
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const { id, uploadIds } = await startDub(tenant, ['es_es', 'ca_es']);
    await gate.reached; // Catalan's dub step is speaking (held), Spanish goes on
    await waitForProjectView(api(), tenant, id, 'es_es completed', (p) => language(p, 'es_es')?.status === 'completed', 150_000);

    expect((await cancel(tenant, id)).status).toBe(202);
    // The cancelled step has not stopped (it is held): nothing of the project may go yet. The
    // old delete answered 200 here once the workflows had settled without waiting for it.
    for (const until = Date.now() + 8000; Date.now() < until;) {
      const refused = await remove(tenant, id);
      expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 409, code: 'project_in_progress' });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // Let it go on: its speech process is killed at once (the step was cancelled), it stores no
    // clip, the language settles cancelled, and DELETE goes through.
    gate.open();
    const deleted = await deleteOnceSettled(tenant, id, 90_000);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id, object: 'project', deleted: true } });
    const ended = await api().db.selectFrom('project_languages').select(['locale', 'status', 'failure_code']).where('project_id', '=', id).orderBy('locale').execute();
    expect(ended).toEqual([
      { locale: 'ca_es', status: 'failed', failure_code: 'cancelled' },
      { locale: 'es_es', status: 'completed', failure_code: null },
    ]);
    await expectNothingLeft(id, uploadIds);
    expect((await remove(tenant, id)).status).toBe(404);
    expect((await request(api().baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).status).toBe(404);
  }, 300_000);

  it('a re-dub after a verified review: 409 while it runs; 200 once it has ended; then no file, row or event of it', async () => {
    // Spanish dubs at once; its re-dub from the verified transcript is held at its speech.
    let redubbing = false;
    let reached!: () => void;
    const redubReached = new Promise<void>((resolve) => (reached = resolve));
    let open = false;
    opened = () => (open = true);
    await suite.worker.use({ tts: gatedSpeech('es_es', { shouldWait: () => redubbing, onReached: () => reached(), isClosed: () => !open }) });
    const tenant = await createTenant(api().db, { credits: 100_000, creditsPerSecond: CPS });
    const { id, uploadIds } = await startDub(tenant, ['es_es']);
    await waitForProjectView(api(), tenant, id, 'the project completed', (p) => p.status === 'completed', 150_000);

    const requested = await request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/transcript-review`, {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: { max_billable_seconds: 60, preview_only: false },
    });
    expect(requested.status).toBe(200);
    const review = api().temporal.workflow.getHandle(transcriptReviewWorkflowId(id));
    await review.executeUpdate(claimReviewUpdate, { args: [{ reviewer: 'ada' }] });
    redubbing = true;
    await review.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: [{ startSeconds: 0.2, endSeconds: 3, text: 'The garden is green and the sky is blue.' }] }] });
    await redubReached;

    // The project is completed and its review verified: only Temporal knows the re-dub runs.
    const refused = await remove(tenant, id);
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 409, code: 'project_in_progress' });
    expect(await deliverableRows(id)).toBeGreaterThan(0);

    open = true;
    await review.result();
    const deleted = await deleteOnceSettled(tenant, id, 60_000);
    expect(deleted.status).toBe(200);
    await expectNothingLeft(id, uploadIds);
  }, 300_000);
});

/** The real translator, except that Catalan goes to an apertium that is not installed (engine_failed). */
function brokenForCatalan(): Translator {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  return { translate: (texts, modes, opts) => (modes[modes.length - 1]!.split('-')[1]!.startsWith('cat') ? missing : real).translate(texts, modes, opts) };
}

describe('DELETE judges the project under its lock before any file goes', () => {
  it('a retry that arrives while DELETE removes the files finds the project deleted (404): nothing reopened, charged or left', async () => {
    await suite.worker.use({ translator: brokenForCatalan() });
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const { id, uploadIds } = await startDub(tenant, ['es_es', 'ca_es']);
    await waitForProjectView(api(), tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed', 150_000);
    await waitFor('project.completed', async () => (await events(id)).includes('project.completed') || undefined, 30_000);
    const ledger = async () => await api().db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', id).orderBy('id').execute();
    const settled = await ledger();

    // The moment DELETE reads where the files are (about to remove them), a free retry of the
    // failed language arrives. The old DELETE removed the files first and judged the project
    // after: the retry reopened it, the DELETE answered 409, and a live project had no files.
    let retried: Awaited<ReturnType<typeof request>> | undefined;
    hook.afterNext(selectFrom('deliverables'), async () => {
      retried = await request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages/ca_es/retry`, {
        headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
        body: { max_billable_seconds: 60, preview_only: false },
      });
    });
    const deleted = await request(hookedApi.baseUrl, 'DELETE', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) });
    expect(retried?.status).toBe(404);
    expect(deleted.status).toBe(200);
    const languages = await api().db.selectFrom('project_languages').select(['locale', 'status', 'attempt']).where('project_id', '=', id).orderBy('locale').execute();
    expect(languages).toEqual([
      { locale: 'ca_es', status: 'failed', attempt: 1 },
      { locale: 'es_es', status: 'completed', attempt: 1 },
    ]);
    expect(await ledger()).toEqual(settled);
    await expectNothingLeft(id, uploadIds);
  }, 300_000);

  it('a removal cut short (storage or database failing after the tombstone) answers 5xx; the project is gone (404) and the same DELETE retried finishes it', async () => {
    await suite.worker.use();
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const { id, uploadIds } = await startDub(tenant, ['es_es']);
    await waitForProjectView(api(), tenant, id, 'project completed', (p) => p.status === 'completed', 150_000);
    await waitFor('project.completed', async () => (await events(id)).includes('project.completed') || undefined, 30_000);

    hook.afterNext(selectFrom('deliverables'), async () => {
      throw new Error('storage went away');
    });
    const cut = await request(hookedApi.baseUrl, 'DELETE', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) });
    expect(cut.status).toBe(500);
    expect((await request(api().baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).status).toBe(404);
    expect(storedFiles(id, uploadIds)).not.toEqual([]);
    expect(await events(id)).not.toContain('project.deleted');
    // A retry or an addition now finds no project to reopen.
    const added = await request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages`, {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: { target_locales: ['ca_es'], max_billable_seconds: 60, preview_only: false },
    });
    expect(added.status).toBe(404);

    const finished = await remove(tenant, id);
    expect(finished.status).toBe(200);
    await expectNothingLeft(id, uploadIds);
    expect((await remove(tenant, id)).status).toBe(404);
  }, 300_000);
});
