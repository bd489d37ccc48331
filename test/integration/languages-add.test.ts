import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { createLocalEngines, type SpeechSynthesizer, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { languageWorkflowId, projectWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { gatedSpeech } from '../helpers/gated-speech';
import { additionRows, dubbedProject, postLanguages, projectLedger, waitForProjectWorkflowClosed } from '../helpers/language-additions';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// Adding languages for real: the addition is charged once through the ledger, the project's
// workflow runs the same language workflow for each new locale (restarted when it had ended),
// the new language is dubbed from the stored transcript, and a new language that fails is
// refunded once. Italian's translator is missing on this worker; Spanish speech can be held at
// a gate to catch a project mid-dub.

const CPS = 10;
let api: TestApi;
let worker: TestWorker;
let dir: string;
let clip: Buffer;

/** The real translator, except that Italian goes to an apertium that is not installed. */
function brokenForItalian(): Translator {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  return { translate: (texts, modes, opts) => (/-ita$/.test(modes[modes.length - 1]!) ? missing : real).translate(texts, modes, opts) };
}

/** When armed, Spanish speech waits until the test opens the gate. */
const gate = { armed: false, open: true, reached: false };
function gatedSpanishSpeech(): SpeechSynthesizer {
  return gatedSpeech('es_es', {
    shouldWait: () => gate.armed,
    onReached: () => {
      gate.reached = true;
    },
    isClosed: () => !gate.open,
  });
}

beforeAll(async () => {
  dir = makeTempDir('lang-add-');
  clip = await spokenClip(dir, 'The garden is green and the sky is blue today.', 4);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, overrides: { engines: { ...createLocalEngines(), translator: brokenForItalian(), tts: gatedSpanishSpeech() } } });
}, 60_000);
afterAll(async () => {
  gate.open = true;
  await worker.stop();
  await api.close();
  removeTempDir(dir);
});

const getProject = async (tenant: TestTenant, id: string) => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
const language = (project: any, locale: string) => project.languages.find((l: any) => l.locale === locale);
const history = async (workflowId: string, runId: string) => (await api.temporal.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
const eventNames = async (projectId: string) =>
  (await api.db.selectFrom('webhook_events').select(['type', 'discriminator']).where('project_id', '=', projectId).orderBy('sequence').execute()).map((e) => `${e.type} ${e.discriminator}`);
const activityNames = (events: any[]) => events.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes.activityType.name);
const signalNames = (events: any[]) => events.filter((e) => e.workflowExecutionSignaledEventAttributes).map((e) => e.workflowExecutionSignaledEventAttributes.signalName);
const childIds = (events: any[]) => events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes).map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId);

it('adds a language to a completed project: charged once, its workflow restarted, the new language dubbed with deliverables; the key replays, and another body is a 422', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const done = await dubbedProject(api, tenant, clip, { target_locales: ['es_es'] });
  const id: string = done.id;
  const b: number = done.usage.billable_seconds;
  expect(done).toMatchObject({ status: 'completed', usage: { state: 'charged', charged_seconds: b } });
  const firstRun = await api.temporal.workflow.getHandle(projectWorkflowId(id)).describe();
  expect(firstRun.status.name).toBe('COMPLETED');
  const ledgerBefore = await projectLedger(api, id);
  const transcriptBefore = await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute();
  // As if the addition came in the gap between the project workflow's last two activities (the
  // ending committed with its event, the relay not run yet): the ending it overwrites stays news.
  const { rows } = await sql<{ discriminator: string }>`update webhook_events set relayed_at = null where project_id = ${id} and type = 'project.completed' returning discriminator`.execute(api.db);
  const ending = rows[0]!;
  expect(await eventNames(id)).toEqual(['project.validated validated', 'language.completed es_es:1:1', `project.completed ${ending.discriminator}`]);

  const key = randomUUID();
  const body = { target_locales: ['es_es', 'ca_es'], max_billable_seconds: b, preview_only: false };
  const added = await postLanguages(api, tenant, id, body, key);
  expect(added.status).toBe(200);
  expect(added.body.data.addition).toEqual({
    preview_only: false,
    existing_locales: ['es_es'],
    new_locales: ['ca_es'],
    billable_seconds: b,
    credits: b * CPS,
    max_billable_seconds: b,
    within_limit: true,
    charged_now_seconds: b,
  });
  expect(added.body.data.project).toMatchObject({
    id,
    status: 'processing',
    target_locales: ['es_es', 'ca_es'],
    usage: { state: 'charged', billable_seconds: b, charged_seconds: 2 * b },
    failure: null,
  });
  expect(language(added.body.data.project, 'ca_es')).toMatchObject({ usage: { charged_seconds: b, refunded_seconds: 0 } });
  // Committed with the response: the row, the project and exactly one ledger charge.
  const row = await api.db.selectFrom('project_languages').selectAll().where('project_id', '=', id).where('locale', '=', 'ca_es').executeTakeFirstOrThrow();
  expect(row).toMatchObject({ attempt: 1, charged_seconds: b, attempt_charged_seconds: b, refunded_seconds: 0 });
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:ca_es:charge:1`]);
  const record = await api.db.selectFrom('language_additions').selectAll().where('project_id', '=', id).execute();
  expect(record).toEqual([expect.objectContaining({ workspace_id: tenant.workspace.id, locales: ['ca_es'], billable_seconds: b, credits: b * CPS, idempotency_key: key })]);
  expect(await eventNames(id)).toEqual(['project.validated validated', 'language.completed es_es:1:1', `project.completed ${ending.discriminator}`]);
  // The addition's relay, after its commit, started what the lost one left.
  expect(await api.db.selectFrom('webhook_events').select('type').where('project_id', '=', id).where('relayed_at', 'is', null).execute()).toEqual([]);

  const finished = await waitForProjectView(api, tenant, id, 'project completed again', (p) => p.status === 'completed', 120_000);
  expect(language(finished, 'ca_es')).toMatchObject({ status: 'completed', failure: null });
  expect(
    language(finished, 'ca_es')
      .deliverables.map((d: any) => `${d.type}/${d.format}`)
      .sort(),
  ).toEqual(['audio/mp3', 'audio/wav', 'background_stem/wav', 'dialog_stem/wav', 'subtitles/srt', 'subtitles/ttml', 'subtitles/vtt', 'thumbnail/png', 'video/mp4']);
  expect(language(finished, 'ca_es').publishing.title).toBeTruthy();
  expect(finished.usage).toMatchObject({ state: 'charged', charged_seconds: 2 * b, refunded_seconds: 0 });
  const vtt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=ca_es&type=subtitles`, { headers: bearer(tenant.key) });
  expect(vtt.status).toBe(200);
  expect(vtt.body).toMatch(/^WEBVTT\n\n\d\d:\d\d/);

  // A new run of project/<id>, started by the signal, ran the child and did not transcribe again.
  const secondRun = await waitForProjectWorkflowClosed(api, id);
  expect(secondRun.runId).not.toBe(firstRun.runId);
  expect(secondRun.status.name).toBe('COMPLETED');
  const events = await history(projectWorkflowId(id), secondRun.runId);
  expect(signalNames(events)).toEqual(['languagesAdded']);
  expect(childIds(events)).toEqual([languageWorkflowId(id, 'ca_es')]);
  expect(activityNames(events)).not.toContain('transcribeSource');
  expect(activityNames(events)).not.toContain('settleCharges');
  // Each ending once, in order: the first (recorded by the addition), the new language, the second.
  const named = await eventNames(id);
  expect(named.slice(0, 4)).toEqual(['project.validated validated', 'language.completed es_es:1:1', `project.completed ${ending.discriminator}`, 'language.completed ca_es:1:1']);
  expect(named).toHaveLength(5);
  expect(named[4]).toMatch(/^project\.completed completed:/);
  expect(named[4]).not.toBe(named[2]);
  expect((await api.temporal.workflow.getHandle(languageWorkflowId(id, 'ca_es')).describe()).status.name).toBe('COMPLETED');
  expect(await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute()).toEqual(transcriptBefore);
  // Exactly one charge for the new language, nothing else moved.
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:ca_es:charge:1`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 2 * b * CPS, reserved: 0 });

  // The same key and body: the stored response, byte for byte, and nothing more.
  const rowsBefore = await additionRows(api, tenant.workspace.id);
  const replay = await postLanguages(api, tenant, id, body, key);
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(added.body);
  // The same key with another body: 422, nothing written.
  const reused = await postLanguages(api, tenant, id, { ...body, target_locales: ['pt_pt'] }, key);
  expect(reused.status).toBe(422);
  expect(reused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
  expect(await additionRows(api, tenant.workspace.id)).toEqual(rowsBefore);
}, 240_000);

it('two concurrent additions of the same locale with different keys add it once and charge once', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const done = await dubbedProject(api, tenant, clip, { target_locales: ['es_es'] });
  const id: string = done.id;
  const b: number = done.usage.billable_seconds;
  const ledgerBefore = await projectLedger(api, id);

  const body = { target_locales: ['pt_pt'], max_billable_seconds: b, preview_only: false };
  const answers = await Promise.all([postLanguages(api, tenant, id, body, randomUUID()), postLanguages(api, tenant, id, body, randomUUID())]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  const [winner, loser] = answers[0]!.body.data.addition.new_locales.length === 1 ? answers : [answers[1]!, answers[0]!];
  expect(winner.body.data.addition).toMatchObject({ existing_locales: [], new_locales: ['pt_pt'], charged_now_seconds: b, credits: b * CPS });
  expect(loser.body.data.addition).toMatchObject({ existing_locales: ['pt_pt'], new_locales: [], billable_seconds: 0, credits: 0, within_limit: true, charged_now_seconds: 0 });
  expect(loser.body.data.project.target_locales).toEqual(['es_es', 'pt_pt']);

  const rows = await api.db.selectFrom('project_languages').select('locale').where('project_id', '=', id).orderBy('locale').execute();
  expect(rows.map((r) => r.locale)).toEqual(['es_es', 'pt_pt']);
  expect(await api.db.selectFrom('language_additions').select('locales').where('project_id', '=', id).execute()).toEqual([{ locales: ['pt_pt'] }]);
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:pt_pt:charge:1`]);
  const finished = await waitForProjectView(api, tenant, id, 'project completed again', (p) => p.status === 'completed', 120_000);
  expect(finished.target_locales).toEqual(['es_es', 'pt_pt']);
  expect(language(finished, 'pt_pt')).toMatchObject({ status: 'completed', usage: { charged_seconds: b, refunded_seconds: 0 } });
  expect(finished.usage).toMatchObject({ charged_seconds: 2 * b });
  await waitForProjectWorkflowClosed(api, id);
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:pt_pt:charge:1`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 2 * b * CPS, reserved: 0 });
}, 240_000);

it('an added language that finally fails is refunded once, and the project ends partially_completed', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const done = await dubbedProject(api, tenant, clip, { target_locales: ['es_es'] });
  const id: string = done.id;
  const b: number = done.usage.billable_seconds;
  const ledgerBefore = await projectLedger(api, id);

  const added = await postLanguages(api, tenant, id, { target_locales: ['it_it'], max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(added.status).toBe(200);
  expect(added.body.data.addition).toMatchObject({ new_locales: ['it_it'], charged_now_seconds: b });
  const ended = await waitForProjectView(api, tenant, id, 'project partially_completed', (p) => p.status === 'partially_completed', 120_000);
  expect(language(ended, 'it_it')).toMatchObject({ status: 'failed', deliverables: [], failure: { code: 'engine_failed' }, usage: { charged_seconds: b, refunded_seconds: b } });
  expect(language(ended, 'es_es')).toMatchObject({ status: 'completed' });
  expect(ended.usage).toMatchObject({ state: 'charged', charged_seconds: b, refunded_seconds: b });
  await waitForProjectWorkflowClosed(api, id);
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:it_it:charge:1`, `refund:${b * CPS}:it_it:refund`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: b * CPS, reserved: 0 });
}, 240_000);

it('a language added while the project is still dubbing is run by the same workflow run', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  gate.armed = true;
  gate.open = false;
  gate.reached = false;
  try {
    const created = (await createProject(api, tenant, projectBody({ target_locales: ['es_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }))).body.data;
    expect((await uploadAndComplete(api, tenant, created, clip)).status).toBe(200);
    await waitFor('Spanish speech to reach the gate', async () => gate.reached, 90_000, 200);
    const running = await api.temporal.workflow.getHandle(projectWorkflowId(created.id)).describe();
    expect(running.status.name).toBe('RUNNING');
    const b: number = (await getProject(tenant, created.id)).usage.billable_seconds;

    const added = await postLanguages(api, tenant, created.id, { target_locales: ['ca_es'], max_billable_seconds: b, preview_only: false }, randomUUID());
    expect(added.status).toBe(200);
    expect(added.body.data.project).toMatchObject({ status: 'processing', target_locales: ['es_es', 'ca_es'], usage: { charged_seconds: 2 * b } });
    gate.open = true;

    const finished = await waitForProjectView(api, tenant, created.id, 'project completed', (p) => p.status === 'completed', 120_000);
    expect(finished.languages.map((l: any) => `${l.locale}:${l.status}`).sort()).toEqual(['ca_es:completed', 'es_es:completed']);
    const closed = await waitForProjectWorkflowClosed(api, created.id);
    expect(closed.runId).toBe(running.runId);
    const events = await history(projectWorkflowId(created.id), running.runId);
    expect(signalNames(events)).toEqual(['uploadCompleted', 'languagesAdded']);
    expect(childIds(events)).toEqual([languageWorkflowId(created.id, 'es_es'), languageWorkflowId(created.id, 'ca_es')]);
    expect(activityNames(events).filter((n) => n === 'transcribeSource')).toHaveLength(1);
    expect(await projectLedger(api, created.id)).toEqual([`hold:${60 * CPS}:hold`, `capture:${b * CPS}:capture`, `release:${(60 - b) * CPS}:release`, `capture:${b * CPS}:ca_es:charge:1`]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 2 * b * CPS, reserved: 0 });
  } finally {
    gate.armed = false;
    gate.open = true;
  }
}, 240_000);
