import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { createLocalEngines, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { blobKeys } from '../../src/db/uploads';
import { failLanguage } from '../../src/lifecycle/language-lifecycle';
import { settleProjectOutcome } from '../../src/lifecycle/project-lifecycle';
import { languageWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { heldSpeech } from '../helpers/gated-speech';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// A customer's cancel, delete and retry (docs/lifecycle.md) on the real API, PostgreSQL, Temporal
// dev server, worker and engines: the ledger shows exactly the releases, refunds and charges
// each one calls for, a repeat answers the same, and a deleted project leaves nothing behind but
// its money history.

const CPS = 10;
const suite = dubbingSuite('lifecycle-', 'The garden is green and the sky is blue today.', { beforeWorkerStop: () => gate?.open() });
const api = () => suite.api;

const getProject = (tenant: TestTenant, id: string) => getProjectView(api(), tenant, id);
const waitForProject = (tenant: TestTenant, id: string, what: string, test: (p: any) => boolean) => waitForProjectView(api(), tenant, id, what, test, 150_000);
const language = (project: any, locale: string) => project.languages.find((l: any) => l.locale === locale);
const ledger = async (projectId: string) =>
  (await api().db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute()).map(
    (r) => `${r.kind}:${r.amount}:${r.reference.slice(projectId.length + 1)}`,
  );
const events = async (projectId: string): Promise<string[]> =>
  (await api().db.selectFrom('webhook_events').select('type').where('project_id', '=', projectId).orderBy('sequence').execute()).map((e) => e.type);

/** The workflow records its events after it settles: wait for the one named. */
const waitForEvent = (projectId: string, type: string) => waitFor(type, async () => ((await events(projectId)).includes(type) ? true : undefined), 30_000, 200);

const cancel = (tenant: TestTenant, id: string, key = randomUUID()) =>
  request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/cancel`, { headers: { ...bearer(tenant.key), 'idempotency-key': key } });
const remove = (tenant: TestTenant, id: string) => request(api().baseUrl, 'DELETE', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) });
const retry = (tenant: TestTenant, id: string, locale: string, body: Record<string, unknown>, key?: string) =>
  request(api().baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages/${locale}/retry`, { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });

/** Catalan's speech waits at a gate the test opens: the language is caught mid-dub. */
let gate: ReturnType<typeof heldSpeech> | undefined;

/** The real translator, except that Catalan goes to an apertium that is not installed (engine_failed). */
function brokenForCatalan(): Translator {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  return { translate: (texts, modes, opts) => (modes[modes.length - 1]!.split('-')[1]!.startsWith('cat') ? missing : real).translate(texts, modes, opts) };
}

async function uploadProject(tenant: TestTenant, targets = ['es_es', 'ca_es']) {
  const created = await createProject(api(), tenant, projectBody({ target_locales: targets, source: { type: 'upload', file_name: 'garden.mp4', size_bytes: suite.clip.length } }));
  expect(created.status).toBe(201);
  return created.body.data;
}

async function startDub(tenant: TestTenant): Promise<string> {
  const project = await uploadProject(tenant);
  expect((await uploadAndComplete(api(), tenant, project, suite.clip)).status).toBe(200);
  return project.id as string;
}

describe('POST /v1/dubbing/projects/{id}/cancel', () => {
  it('awaiting its upload: the hold is released at once, the project fails cancelled, and a repeat answers the same', async () => {
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const other = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await uploadProject(tenant);
    expect((await cancel(other, project.id)).status).toBe(404);

    const key = randomUUID();
    const first = await cancel(tenant, project.id, key);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'failed', failure: { code: 'cancelled' }, usage: { state: 'released', charged_seconds: 0 } });
    expect(await ledger(project.id)).toEqual([`hold:${60 * 2 * CPS}:hold`, `release:${60 * 2 * CPS}:release`]);
    expect(await getBalance(api().db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });

    // The same key replays the answer; a new key finds it cancelled and answers the same again.
    const replay = await cancel(tenant, project.id, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const again = await cancel(tenant, project.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'failed', failure: { code: 'cancelled' } });
    expect(await ledger(project.id)).toHaveLength(2);
    expect(await events(project.id)).toEqual(['project.failed', 'project.cancelled']);

    // The upload can no longer complete.
    expect((await uploadAndComplete(api(), tenant, project, suite.clip)).status).toBe(409);
  });

  it('validating: the workflow settles the cancel (no worker yet, then one): hold released, nothing charged', async () => {
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const id = await startDub(tenant);
    expect((await getProject(tenant, id)).status).toBe('validating');

    const requested = await cancel(tenant, id);
    expect(requested.status).toBe(202);
    expect(requested.body.data.status).toBe('validating');
    await suite.worker.use();
    const ended = await waitForProject(tenant, id, 'project failed', (p) => p.status === 'failed');
    expect(ended).toMatchObject({ failure: { code: 'cancelled' }, usage: { state: 'released', charged_seconds: 0 } });
    expect(await ledger(id)).toEqual([`hold:${60 * 2 * CPS}:hold`, `release:${60 * 2 * CPS}:release`]);
    expect(await getBalance(api().db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
    await waitForEvent(id, 'project.cancelled');
    expect((await cancel(tenant, id)).status).toBe(200);
  }, 180_000);

  it('mid-dub with one language completed: the other is failed cancelled and refunded once, the completed keeps its files; retry (charged) = quote; then delete', async () => {
    await suite.worker.use({ tts: (gate = heldSpeech('ca_es')).speech });
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const other = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const id = await startDub(tenant);
    await gate!.reached;
    await waitForProject(tenant, id, 'es_es completed', (p) => language(p, 'es_es')?.status === 'completed');

    const key = randomUUID();
    const requested = await cancel(tenant, id, key);
    expect(requested.status).toBe(202);
    const ended = await waitForProject(tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed');
    const billable: number = ended.usage.billable_seconds;
    expect(language(ended, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'cancelled', retry: 'charged' }, usage: { charged_seconds: billable, refunded_seconds: billable } });
    expect(language(ended, 'es_es')).toMatchObject({ status: 'completed' });
    expect(language(ended, 'es_es').deliverables).toHaveLength(9); // with the TTML captions and the two stems (docs/captions.md, docs/audio.md#stems)
    const settled = [`hold:${60 * 2 * CPS}:hold`, `capture:${billable * 2 * CPS}:capture`, `release:${(60 - billable) * 2 * CPS}:release`, `refund:${billable * CPS}:ca_es:refund`];
    expect(await ledger(id)).toEqual(settled);
    expect(await getBalance(api().db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });

    // Twice: the same key replays the 202; a new key answers the ended project, and nothing moves.
    const replay = await cancel(tenant, id, key);
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(requested.body);
    const again = await cancel(tenant, id);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('partially_completed');
    expect(await ledger(id)).toEqual(settled);
    await waitForEvent(id, 'project.cancelled');

    // A cancelled language is the customer's choice: its retry is charged, exactly as quoted.
    const quote = await retry(tenant, id, 'ca_es', { max_billable_seconds: 60 });
    expect(quote.status).toBe(200);
    expect(quote.body.data.retry).toEqual({
      preview_only: true,
      locale: 'ca_es',
      failure_code: 'cancelled',
      price: 'charged',
      billable_seconds: billable,
      credits: billable * CPS,
      max_billable_seconds: 60,
      within_limit: true,
      charged_now_seconds: 0,
      attempt: null,
    });
    expect(await ledger(id)).toEqual(settled);
    expect((await retry(tenant, id, 'ca_es', { max_billable_seconds: 60, preview_only: false })).body.error).toMatchObject({ code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    gate!.open();
    const paid = await retry(tenant, id, 'ca_es', { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    expect(paid.body.data.retry).toMatchObject({ price: 'charged', credits: billable * CPS, charged_now_seconds: billable, attempt: 2 });
    expect(await ledger(id)).toEqual([...settled, `capture:${quote.body.data.retry.credits}:ca_es:charge:2`]);
    const done = await waitForProject(tenant, id, 'project completed', (p) => p.status === 'completed');
    expect(language(done, 'ca_es')).toMatchObject({ status: 'completed', failure: null });
    const finalLedger = await ledger(id);

    // A project that ended without a cancel has nothing to cancel.
    const refused = await cancel(tenant, id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict_error', code: 'project_already_ended' });

    // Delete: another tenant gets the same 404; then the files, rows and blobs go, the ledger stays.
    const files = await api().db.selectFrom('deliverables').select('storage_key').where('project_id', '=', id).execute();
    expect(files.length).toBe(18); // 9 a language: the TTML captions and the two stems included (docs/captions.md, docs/audio.md#stems)
    expect(await api().blobStore.stat(blobKeys.source(id))).not.toBeNull();
    expect((await remove(other, id)).status).toBe(404);
    const deleted = await remove(tenant, id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { id, object: 'project', deleted: true } });
    expect((await request(api().baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).status).toBe(404);
    const list = await request(api().baseUrl, 'GET', '/v1/dubbing/projects', { headers: bearer(tenant.key) });
    expect(list.body.data.map((p: any) => p.id)).not.toContain(id);
    for (const file of files) expect(await api().blobStore.stat(file.storage_key)).toBeNull();
    expect(await api().blobStore.stat(blobKeys.source(id))).toBeNull();
    for (const table of ['deliverables', 'transcript_segments', 'source_segments', 'language_segments', 'uploads'] as const) {
      const rows = await api().db.selectFrom(table).select('project_id').where('project_id', '=', id).execute();
      expect({ table, rows: rows.length }).toEqual({ table, rows: 0 });
    }
    expect(await ledger(id)).toEqual(finalLedger);
    expect(await events(id)).toContain('project.deleted');
    expect((await remove(tenant, id)).status).toBe(404);
    expect((await cancel(tenant, id)).status).toBe(404);
  }, 300_000);
});

describe('DELETE /v1/dubbing/projects/{id}', () => {
  it('a project still at work is refused with 409: cancel it first; nothing is removed', async () => {
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const id = await startDub(tenant); // validating, no worker
    const refused = await remove(tenant, id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict_error', code: 'project_in_progress' });
    expect(refused.body.error.message).toContain('cancel it first');
    expect((await getProject(tenant, id)).status).toBe('validating');
    expect(await api().db.selectFrom('uploads').select('id').where('project_id', '=', id).execute()).toHaveLength(1);
    // Cancelled and ended, it can go.
    expect((await cancel(tenant, id)).status).toBe(202);
    await suite.worker.use();
    await waitForProject(tenant, id, 'project failed', (p) => p.status === 'failed');
    expect((await remove(tenant, id)).status).toBe(200);
    expect(await ledger(id)).toEqual([`hold:${60 * 2 * CPS}:hold`, `release:${60 * 2 * CPS}:release`]);
  }, 180_000);
});

describe('POST /v1/dubbing/projects/{id}/languages/{locale}/retry', () => {
  it('an engine failure is retried free: quoted 0, nothing charged, and it completes', async () => {
    await suite.worker.use({ translator: brokenForCatalan() });
    const tenant = await createTenant(api().db, { credits: 10_000, creditsPerSecond: CPS });
    const id = await startDub(tenant);
    const partial = await waitForProject(tenant, id, 'partially_completed', (p) => p.status === 'partially_completed');
    const billable: number = partial.usage.billable_seconds;
    expect(language(partial, 'ca_es')).toMatchObject({ status: 'failed', failure: { code: 'engine_failed', retry: 'free' } });
    const before = await ledger(id);

    const quote = await retry(tenant, id, 'ca_es', { max_billable_seconds: 1 });
    expect(quote.body.data.retry).toMatchObject({ price: 'free', failure_code: 'engine_failed', billable_seconds: 0, credits: 0, within_limit: true });
    // Not failed: refused, nothing written.
    const notFailed = await retry(tenant, id, 'es_es', { max_billable_seconds: 60 });
    expect(notFailed.status).toBe(409);
    expect(notFailed.body.error.code).toBe('language_not_failed');
    expect((await retry(tenant, id, 'de_de', { max_billable_seconds: 60 })).status).toBe(404);
    const bad = await retry(tenant, id, 'ca_es', { max_billable_seconds: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'max_billable_seconds' });

    await suite.worker.use();
    const key = randomUUID();
    const paid = await retry(tenant, id, 'ca_es', { max_billable_seconds: 1, preview_only: false }, key);
    expect(paid.status).toBe(200);
    expect(paid.body.data.retry).toMatchObject({ price: 'free', charged_now_seconds: 0, attempt: 2 });
    const done = await waitForProject(tenant, id, 'completed', (p) => p.status === 'completed');
    expect(language(done, 'ca_es')).toMatchObject({ status: 'completed', usage: { charged_seconds: billable, refunded_seconds: billable, goodwill_seconds: 0 } });
    expect(await ledger(id)).toEqual(before);
    // The same key replays; it never starts a second attempt.
    const replay = await retry(tenant, id, 'ca_es', { max_billable_seconds: 1, preview_only: false }, key);
    expect(replay.body).toEqual(paid.body);
    expect((await api().db.selectFrom('project_languages').select('attempt').where('project_id', '=', id).where('locale', '=', 'ca_es').executeTakeFirstOrThrow()).attempt).toBe(2);
  }, 240_000);

  it('a source failure is charged: the quote is the charge, over the limit charges nothing, short of credits is 402', async () => {
    const tenant = await createTenant(api().db, { credits: 1_000, creditsPerSecond: CPS });
    const id = randomUUID();
    await api()
      .db.insertInto('projects')
      .values({
        id,
        workspace_id: tenant.workspace.id,
        name: 'source failed',
        source_type: 'upload',
        source_file_name: 'x.mp4',
        source_size_bytes: 1000,
        source_locale: 'en_us',
        target_locales: ['ca_es'],
        status: 'processing',
        phase: 'dubbing',
        max_billable_seconds: 60,
        credits_per_second: CPS,
        billable_seconds: 30,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
      })
      .execute();
    await api().db.insertInto('project_languages').values({ project_id: id, locale: 'ca_es', status: 'dubbing' }).execute();
    // The source fails through the lifecycle (nothing was charged to refund), which appends the
    // events of that ending; no workflow relays them.
    const settings = { publicBaseUrl: api().config.http.publicBaseUrl };
    await api()
      .db.transaction()
      .execute(async (trx) => {
        await failLanguage(trx, { projectId: id, locale: 'ca_es', attempt: 'current', code: 'source_failed', detail: 'x' }, settings);
        await settleProjectOutcome(trx, id, settings);
      });
    expect(await getProjectView(api(), tenant, id)).toMatchObject({ status: 'failed', usage: { state: 'refunded' } });
    const ending = await events(id);
    expect(ending).toEqual(['language.failed', 'project.failed']);

    const over = await retry(tenant, id, 'ca_es', { max_billable_seconds: 29, preview_only: false }, randomUUID());
    expect(over.status).toBe(200);
    expect(over.body.data.retry).toMatchObject({ price: 'charged', billable_seconds: 30, credits: 300, within_limit: false, charged_now_seconds: 0 });
    expect(await ledger(id)).toEqual([]);

    const poor = await createTenant(api().db, { credits: 100, creditsPerSecond: CPS });
    await api().db.updateTable('projects').set({ workspace_id: poor.workspace.id }).where('id', '=', id).execute();
    const short = await retry(poor, id, 'ca_es', { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(short.status).toBe(402);
    expect(short.body.error.code).toBe('insufficient_credits');
    expect(await ledger(id)).toEqual([]);
    expect(await events(id)).toEqual(ending);
    await api().db.updateTable('projects').set({ workspace_id: tenant.workspace.id }).where('id', '=', id).execute();

    const quote = await retry(tenant, id, 'ca_es', { max_billable_seconds: 60 });
    const paid = await retry(tenant, id, 'ca_es', { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(paid.status).toBe(200);
    expect(await ledger(id)).toEqual([`capture:${quote.body.data.retry.credits}:ca_es:charge:2`]);
    expect(paid.body.data.project).toMatchObject({ status: 'processing', usage: { charged_seconds: 30 } });
    // No workflow relayed this project's failure: its events stay in the outbox after the retry
    // overwrote the ending, so a webhook receiver still hears of it.
    expect(await events(id)).toEqual(['language.failed', 'project.failed']);
    // No worker polls here: stop the attempt's workflow, as an operator would; the reconciler's settlement is not under test.
    await api().temporal.workflow.getHandle(languageWorkflowId(id, 'ca_es')).terminate('test done');
    await api().db.updateTable('project_languages').set({ status: 'failed' }).where('project_id', '=', id).execute();
    await api().db.updateTable('projects').set({ status: 'failed' }).where('id', '=', id).execute();
  });
});
