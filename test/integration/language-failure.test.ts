import { consoleRun } from '../helpers/console-run';
import { getBalance } from '../../src/db/credits';
import { createLocalEngines, type Translator } from '../../src/engines';
import { ApertiumTranslator } from '../../src/engines/translate/apertium-translator';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// One engine fails permanently for one language (its translator binary is missing). That
// language fails with a reason and is refunded once; the other completes; the console retry,
// with the engine fixed, completes it with no second charge.

const CPS = 10;
let api: TestApi;
let worker: TestWorker | undefined;
let tenant: TestTenant;
let dir: string;

/** The real translator, except that Catalan goes to an apertium that is not installed. */
// Catalan is the route's last step (other targets pivot through Catalan: src/engines/locale-catalog.ts).
const isRouteTo = (modes: readonly string[], language: string) => modes[modes.length - 1]!.split('-')[1]!.startsWith(language);

function brokenForCatalan(): Translator {
  const real = createLocalEngines().translator;
  const missing = new ApertiumTranslator({ command: '/nonexistent/apertium' });
  return { translate: (texts, modes, opts) => (isRouteTo(modes, 'cat') ? missing : real).translate(texts, modes, opts) };
}

beforeAll(async () => {
  dir = makeTempDir('lang-fail-');
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
});
afterAll(async () => {
  await worker?.stop();
  await api.close();
  removeTempDir(dir);
});

const getProject = async (id: string) => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
const ledgerKinds = async (projectId: string) =>
  (await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute()).map((r) => `${r.kind}:${r.amount}`);

it('item 11 + item 5: fails and refunds one language with a safe message, then the console retry (free: the engines failed) completes it', async () => {
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, overrides: { engines: { ...createLocalEngines(), translator: brokenForCatalan() } } });
  const clip = await spokenClip(dir, 'The garden is green and the sky is blue today.', 4);
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'garden.mp4', size_bytes: clip.length } }));
  const projectId: string = created.body.data.id;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);

  const partial = await waitFor(
    'partially_completed',
    async () => {
      const p = await getProject(projectId);
      return p.status === 'partially_completed' ? p : undefined;
    },
    120_000,
    500,
  );
  const billable: number = partial.usage.billable_seconds;
  const [catalan, spanish] = ['ca_es', 'es_es'].map((l) => partial.languages.find((x: any) => x.locale === l));
  expect(spanish).toMatchObject({ status: 'completed' });
  expect(catalan).toMatchObject({ status: 'failed', deliverables: [], failure: { code: 'engine_failed', retry: 'free' }, usage: { refunded_seconds: billable } });
  // Item 11: the client reads a code and a safe sentence; the engine's own words (a path here)
  // stay in failure_detail for operators.
  expect(catalan.failure.message).toBe('The dubbing engines could not produce ca_es; what it was charged was refunded.');
  expect(JSON.stringify(partial)).not.toContain('/nonexistent');
  const detail = await api.db.selectFrom('project_languages').select('failure_detail').where('project_id', '=', projectId).where('locale', '=', 'ca_es').executeTakeFirstOrThrow();
  expect(detail.failure_detail).toContain('/nonexistent/apertium: not installed');
  expect(partial.usage).toMatchObject({ state: 'charged', charged_seconds: billable, refunded_seconds: billable });
  expect(partial.progress.message).toContain('1 of 2 languages dubbed; 1 failed');
  expect(await ledgerKinds(projectId)).toEqual([`hold:${60 * 2 * CPS}`, `capture:${billable * 2 * CPS}`, `release:${(60 - billable) * 2 * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });

  // The engine is fixed: a worker with the real engines, then the operator's retry.
  await worker.stop();
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  process.env.TEMPORAL_TASK_QUEUE = api.config.temporal.taskQueue;
  let retried;
  try {
    retried = await consoleRun('languages:retry', projectId, 'ca_es');
  } finally {
    delete process.env.TEMPORAL_TASK_QUEUE;
  }
  expect(retried.code).toBe(0);
  expect(retried.stdout).toContain('ca_es: completed');

  const done = await getProject(projectId);
  expect(done.status).toBe('completed');
  expect(done.languages.find((l: any) => l.locale === 'ca_es')).toMatchObject({ status: 'completed', failure: null });
  expect(done.languages.find((l: any) => l.locale === 'ca_es').deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)
  // The failure was the engines' (the platform's): the retry is free (docs/money.md#retrying-a-failed-language).
  // The first attempt's refund stands, nothing more moves through the ledger, and usage says so.
  expect(retried.stdout).toContain("free: engine_failed was the platform's failure");
  expect(await ledgerKinds(projectId)).toEqual([`hold:${60 * 2 * CPS}`, `capture:${billable * 2 * CPS}`, `release:${(60 - billable) * 2 * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: billable * CPS, reserved: 0 });
  expect(done.usage).toMatchObject({ state: 'charged', charged_seconds: billable, refunded_seconds: billable });
  expect(done.languages.find((l: any) => l.locale === 'ca_es').usage).toMatchObject({ charged_seconds: billable, refunded_seconds: billable, goodwill_seconds: 0 });
  // Webhook events tell the same story, each change once: both languages ending (in the order
  // they did), the first ending (partially completed), the retry's completion as attempt 2, and
  // the second ending.
  const events = (await api.db.selectFrom('webhook_events').select(['type', 'discriminator']).where('project_id', '=', projectId).orderBy('sequence').execute()).map(
    (e) => `${e.type} ${e.discriminator}`,
  );
  expect(events).toHaveLength(6);
  expect(events[0]).toBe('project.validated validated');
  expect(events.slice(1, 3).sort()).toEqual(['language.completed es_es:1:1', 'language.failed ca_es:1']);
  expect(events[3]).toMatch(/^project\.completed partially_completed:/);
  expect(events[4]).toBe('language.completed ca_es:2:1');
  expect(events[5]).toMatch(/^project\.completed completed:/);

  // Retrying a language that is not failed is refused.
  const refused = await consoleRun('languages:retry', projectId, 'es_es');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe('error: es_es is completed; only a failed language can be retried');
}, 240_000);
