import childProcess from 'node:child_process';
import { LOCALE_CATALOG } from '../../src/engines/locale-catalog';
import { languageWorkflowId, projectWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';
import { spokenClipOutOfProcess, startWorkerProcess, type WorkerProcess } from '../helpers/worker-process';

// Two real worker processes with different engine sets behind one API: the locale list is their
// union, each language runs on a worker whose engines serve it, and this process (the API's)
// never starts an engine: every child it spawns is recorded, and all of them are Node.

const spawned: string[] = [];
for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork'] as const) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  jest.spyOn(childProcess, name).mockImplementation(((...args: unknown[]) => {
    spawned.push(String(args[0]));
    return original.apply(childProcess, args);
  }) as never);
}

let api: TestApi;
let tenant: TestTenant;
let dir: string;
let general: WorkerProcess | undefined; // workflows + media; lacks every route to Catalan
let catalan: WorkerProcess | undefined; // media only; English source and Catalan only

beforeAll(async () => {
  dir = makeTempDir('fleet-');
  api = await startTestApi({}, [], 'none');
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
});
afterAll(async () => {
  await Promise.all([general?.stop(), catalan?.stop()]);
  await api.close();
  removeTempDir(dir);
});

const locales = () => request(api.baseUrl, 'GET', '/v1/dubbing/locales');
const fleetRows = () => api.db.selectFrom('worker_capabilities').selectAll().where('task_queue', '=', api.config.temporal.taskQueue).orderBy('worker_id').execute();

/** (activity, task queue it was scheduled on, identity of the worker that started it) for a workflow. */
async function activityPlacements(workflowId: string): Promise<{ activity: string; queue: string; identity: string }[]> {
  // The workflow's last steps (webhook events) may still run after GET shows the project done.
  await api.temporal.workflow.getHandle(workflowId).result();
  const history = await api.temporal.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const startedBy = new Map(
    events.filter((e) => e.activityTaskStartedEventAttributes).map((e) => [String(e.activityTaskStartedEventAttributes!.scheduledEventId), e.activityTaskStartedEventAttributes!.identity ?? '']),
  );
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes)
    .map((e) => ({
      activity: e.activityTaskScheduledEventAttributes!.activityType!.name!,
      queue: e.activityTaskScheduledEventAttributes!.taskQueue!.name!,
      identity: startedBy.get(String(e.eventId)) ?? '',
    }));
}

it('knows no locale before any worker published, and refuses a project then, writing nothing', async () => {
  const res = await locales();
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: [], capabilities: { source: 'none', live_workers: 0, as_of: null, age_seconds: null } });

  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }));
  expect(created.status).toBe(400);
  expect(created.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_locale', param: 'source_locale' });
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
});

it('lists the union of two workers with different engine sets, and runs each language on a worker that serves it', async () => {
  const queue = api.config.temporal.taskQueue;
  general = startWorkerProcess({
    TEMPORAL_TASK_QUEUE: queue,
    WORKER_ROLES: 'workflows,media',
    ENGINE_EXCLUDED_TRANSLATION_MODES: 'eng-cat,spa-cat',
    MEDIA_CONCURRENCY: '1',
    WORKER_HEARTBEAT_SECONDS: '2',
  });
  catalan = startWorkerProcess({ TEMPORAL_TASK_QUEUE: queue, WORKER_ROLES: 'media', ENGINE_LOCALES: 'en_us,ca_es', MEDIA_CONCURRENCY: '1', WORKER_HEARTBEAT_SECONDS: '2' });
  const clip = await spokenClipOutOfProcess(dir, 'Two workers share this job between them.', 3);

  // Both published (rows), and the API heard it (NOTIFY) without being told.
  const listed = await waitFor(
    'both workers in the locale list',
    async () => {
      const res = await locales();
      return res.body.capabilities.live_workers === 2 ? res : undefined;
    },
    60_000,
    200,
  );
  const rows = await fleetRows();
  expect(rows).toHaveLength(2);
  const rowOf = (w: WorkerProcess) => rows.find((r) => r.worker_id.startsWith(w.identityPrefix))!;
  const generalRow = rowOf(general);
  const catalanRow = rowOf(catalan);
  expect(catalanRow.capabilities.locales.map((l) => l.locale)).toEqual(['en_us', 'ca_es']);
  expect(generalRow.capabilities.locales.map((l) => l.locale)).toEqual(expect.arrayContaining(['en_us', 'es_es']));
  expect(generalRow.capabilities.locales.map((l) => l.locale)).not.toContain('ca_es');
  expect(generalRow.capabilities.versions).toHaveProperty('ffmpeg');
  expect(generalRow.media_task_queue).not.toEqual(catalanRow.media_task_queue);
  for (const row of rows) expect(row.media_task_queue).toMatch(new RegExp(`^${queue}\\.media\\.engines-[0-9a-f]{10}$`));

  // The list is exactly the union, in catalog order, and says it is live.
  expect(listed.status).toBe(200);
  const union = new Set([...generalRow.capabilities.locales, ...catalanRow.capabilities.locales].map((l) => l.locale));
  expect(listed.body.data.map((l: any) => l.locale)).toEqual(LOCALE_CATALOG.map((d) => d.locale).filter((l) => union.has(l)));
  expect(listed.body.data.find((l: any) => l.locale === 'ca_es')).toMatchObject({ usable_as_target: true, translation_pivot: null });
  expect(listed.body.data.find((l: any) => l.locale === 'es_es')).toMatchObject({ usable_as_target: true });
  expect(listed.body.data.find((l: any) => l.locale === 'en_us')).toMatchObject({ usable_as_source: true });
  expect(listed.body.capabilities).toMatchObject({ source: 'live_workers', live_workers: 2 });
  expect(listed.body.capabilities.age_seconds).toBeLessThanOrEqual(4);

  // A catalog locale that neither worker serves is refused at create, naming it; nothing written.
  const unserved = LOCALE_CATALOG.map((d) => d.locale).find((l) => !union.has(l));
  if (unserved) {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const refused = await createProject(api, tenant, projectBody({ target_locales: ['es_es', unserved] }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_locale', param: 'target_locales[1]' });
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  }

  // A project in Catalan (only one worker) and Spanish (only the other).
  const created = await createProject(
    api,
    tenant,
    projectBody({ target_locales: ['ca_es', 'es_es'], max_billable_seconds: 30, source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }),
  );
  expect(created.status).toBe(201);
  const projectId: string = created.body.data.id;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  const done = await waitForProjectView(api, tenant, projectId, 'the project to complete', (p) => p.status === 'completed', 240_000);
  expect(done.languages.map((l: any) => [l.locale, l.status])).toEqual(
    expect.arrayContaining([
      ['ca_es', 'completed'],
      ['es_es', 'completed'],
    ]),
  );
  const languageRows = await api.db.selectFrom('project_languages').select(['locale', 'status']).where('project_id', '=', projectId).orderBy('locale').execute();
  expect(languageRows).toEqual([
    { locale: 'ca_es', status: 'completed' },
    { locale: 'es_es', status: 'completed' },
  ]);
  const deliverables = await api.db.selectFrom('deliverables').select(['locale']).where('project_id', '=', projectId).execute();
  expect(new Set(deliverables.map((d) => d.locale))).toEqual(new Set(['ca_es', 'es_es']));

  // Each language's media steps ran on the queue, and the worker, whose engines serve it; the
  // database steps (routing included) stayed on the base queue, run by the workflows worker.
  for (const [locale, row, worker] of [
    ['ca_es', catalanRow, catalan],
    ['es_es', generalRow, general],
  ] as const) {
    const placements = await activityPlacements(languageWorkflowId(projectId, locale));
    const mediaSteps = placements.filter((p) => p.activity === 'translateLanguage' || p.activity === 'dubLanguage');
    expect(mediaSteps.map((p) => p.activity)).toEqual(['translateLanguage', 'dubLanguage']);
    for (const step of mediaSteps) {
      expect(step.queue).toBe(row.media_task_queue);
      expect(step.identity.startsWith(worker.identityPrefix)).toBe(true);
    }
    for (const step of placements.filter((p) => !mediaSteps.includes(p))) {
      expect(step.queue).toBe(queue);
      expect(step.identity.startsWith(general.identityPrefix)).toBe(true);
    }
  }
  const sourceSteps = (await activityPlacements(projectWorkflowId(projectId))).filter((p) => p.activity === 'prepareSource' || p.activity === 'transcribeSource');
  expect(sourceSteps).toHaveLength(2);
  for (const step of sourceSteps) expect([generalRow.media_task_queue, catalanRow.media_task_queue]).toContain(step.queue);

  // A worker leaving is heard at once: its locales leave the list.
  expect(await catalan.stop()).toBe(0);
  const withoutCatalan = await waitFor(
    'the Catalan worker to leave the list',
    async () => {
      const res = await locales();
      return res.body.capabilities.live_workers === 1 ? res : undefined;
    },
    30_000,
    200,
  );
  expect(withoutCatalan.body.data.map((l: any) => l.locale)).not.toContain('ca_es');

  // With no live worker the list answers from the last known workers, and says how old that is.
  expect(await general.stop()).toBe(0);
  const lastKnown = await waitFor(
    'no live worker',
    async () => {
      const res = await locales();
      return res.body.capabilities.source === 'last_known' ? res : undefined;
    },
    30_000,
    200,
  );
  expect(lastKnown.status).toBe(200);
  expect(lastKnown.body.data.map((l: any) => l.locale)).toEqual(expect.arrayContaining(['en_us', 'es_es']));
  expect(lastKnown.body.capabilities).toMatchObject({ source: 'last_known', live_workers: 0, as_of: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  expect(lastKnown.body.capabilities.age_seconds).toBeGreaterThanOrEqual(0);
  expect((await fleetRows()).every((r) => r.expires_at.getTime() <= Date.now() + 1000)).toBe(true);
}, 360_000);

it('never started an engine in the API test process', () => {
  // It started Node processes only (the workers and the clip maker), never ffmpeg, pocketsphinx,
  // apertium, espeak-ng, dpkg-query or a shell.
  expect(spawned.length).toBeGreaterThanOrEqual(3);
  expect(spawned.filter((command) => command !== process.execPath)).toEqual([]);
});
