import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createReconcilerActivities } from '../../src/activities/reconciler.activities';
import { getBalance } from '../../src/db/credits';
import { failLanguage } from '../../src/lifecycle/language-lifecycle';
import { settleProjectOutcome } from '../../src/lifecycle/project-lifecycle';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { chargedProject as writeChargedProject, describesWaitAt, ledgerOf, refusingStarts, TEN_MINUTES_AGO } from '../helpers/reconciler-fixtures';
import { withReconcilerSchedule } from '../helpers/reconciler-schedule';
import { startWebhookReceiver } from '../helpers/webhook-receiver';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { putPart, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// The safety net: each inconsistency is written straight into the database for a fresh tenant,
// then the reconciler runs the way production runs it, from a real Temporal Schedule (one of this
// test's own, triggered by hand) executed by a real worker, and the project ends healed.

let api: TestApi;
let worker: TestWorker;
let dir: string;
let clip: Buffer;
const CPS = 10;
const GRACE = 60;

beforeAll(async () => {
  dir = makeTempDir('reconciler-');
  clip = await spokenClip(dir, 'This clip is five seconds long or a little more than that.', 5.5);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  if (dir) removeTempDir(dir);
});

const scheduleInput = (tenant: TestTenant) => ({ workspaceId: tenant.workspace.id, graceSeconds: GRACE });
/** One pass of the reconciler, from a schedule of this test's own, triggered by hand. */
const reconcile = (tenant: TestTenant) => withReconcilerSchedule(api, scheduleInput(tenant), (pass) => pass());
const getProject = async (tenant: TestTenant, id: string) => {
  const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) });
  expect(res.status).toBe(200);
  return res.body.data;
};
const repairs = (projectId: string) => api.db.selectFrom('reconciler_repairs').select(['subject', 'kind', 'detail']).where('subject', 'like', `%${projectId}%`).orderBy('id').execute();
const ledger = (projectId: string) => ledgerOf(api.db, projectId);
const normalizeEtag = (etag: string) =>
  etag
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();

const chargedProject = (tenant: TestTenant, state: Parameters<typeof writeChargedProject>[3]) => writeChargedProject(api.db, CPS, tenant, state);

/**
 * An upload project with every part PUT and the upload marked completed exactly as
 * upload/complete commits it (backdated), but whose workflow start never happened.
 */
async function validatingProjectWithoutWorkflow(tenant: TestTenant): Promise<{ id: string }> {
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
  expect(created.status).toBe(201);
  const project = created.body.data;
  const bytes = splitParts(clip, project.transfer.part_size_bytes);
  const completed: { part_number: number; etag: string }[] = [];
  for (const part of project.transfer.parts) {
    const res = await putPart(part.url, bytes[part.part_number - 1]!);
    expect(res.status).toBe(200);
    completed.push({ part_number: part.part_number, etag: normalizeEtag(res.etag!) });
  }
  // What upload/complete commits, without the workflow start that follows it (lost in a crash).
  await api.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('uploads')
      .set({ completed_at: sql<Date>`now()`, completed_parts: JSON.stringify(completed) })
      .where('project_id', '=', project.id)
      .execute();
    await trx.updateTable('projects').set({ status: 'validating', phase: 'validating', updated_at: TEN_MINUTES_AGO }).where('id', '=', project.id).execute();
  });
  expect((await getProject(tenant, project.id)).status).toBe('validating');
  return { id: project.id };
}

const waitForCompleted = (tenant: TestTenant, id: string) =>
  waitFor(
    'the restarted project to complete',
    async () => {
      const current = await getProject(tenant, id);
      if (current.status === 'failed') throw new Error(`the restarted project failed: ${JSON.stringify(current.failure)}`);
      return current.status === 'completed' ? current : undefined;
    },
    150_000,
    500,
  );

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the reconciler schedule (the safety net)', () => {
  // Old code (a25b1f9) had no reconciler at all (no activity, workflow or schedule): nothing ever started this workflow.
  it('item 1 safety net: a validating upload project whose workflow was never started is started and dubbed', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await validatingProjectWithoutWorkflow(tenant);

    const pass = await reconcile(tenant);
    expect(pass.failed).toEqual([]);
    expect(pass.repairs).toEqual([expect.objectContaining({ subject: `project/${project.id}`, kind: 'restart_project_workflow' })]);
    expect(await repairs(project.id)).toEqual([expect.objectContaining({ subject: `project/${project.id}`, kind: 'restart_project_workflow' })]);

    const done = await waitForCompleted(tenant, project.id);
    expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 6, charged_seconds: 6, refunded_seconds: 0 });
    expect(done.languages).toEqual([expect.objectContaining({ locale: 'es_es', status: 'completed', failure: null })]);
    expect(await ledger(project.id)).toEqual(['hold:600:hold', 'capture:60:capture', 'release:540:release']);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 60, reserved: 0 });
  }, 240_000);

  // Old code (a25b1f9) had no reconciler; an earlier version of it recorded the restart before starting, so a refused start made the next pass settle (fail) a project that never ran.
  it('a restart Temporal refuses is tried again on the next pass, never taken for a second stop', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await validatingProjectWithoutWorkflow(tenant);
    // The activity called directly, with starts refused: the schedule cannot inject that fault.
    const refused = createReconcilerActivities({
      db: api.db,
      temporal: refusingStarts(api.temporal),
      taskQueue: api.config.temporal.taskQueue,
      reconcileGraceSeconds: GRACE,
      webhooks: { ...api.config.webhooks, publicBaseUrl: api.config.http.publicBaseUrl },
    });
    for (let i = 0; i < 2; i++) {
      expect(await refused.reconcile(scheduleInput(tenant))).toEqual({ repairs: [], failed: [`project/${project.id}`] });
    }
    expect(await repairs(project.id)).toEqual([]);
    expect(await getProject(tenant, project.id)).toMatchObject({ status: 'validating', failure: null, usage: { state: 'pending_validation' } });
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 600 });

    // Once Temporal takes starts again, the schedule's pass starts it, and it is dubbed.
    const pass = await reconcile(tenant);
    expect(pass).toEqual({ repairs: [expect.objectContaining({ subject: `project/${project.id}`, kind: 'restart_project_workflow' })], failed: [] });
    const done = await waitForCompleted(tenant, project.id);
    expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 6, charged_seconds: 6 });
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 60, reserved: 0 });
  }, 240_000);

  // Old code (a25b1f9) had no reconciler: a hold left reserved for an ended project stayed reserved forever.
  it('a hold still reserved for a project in a final state is released', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const created = await createProject(api, tenant, projectBody());
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 600 });
    // Failed as an expired upload, but the release that goes with it never happened.
    await api.db
      .updateTable('projects')
      .set({
        status: 'failed',
        phase: 'failed',
        failure_code: 'upload_expired',
        failure_message: 'The upload was not completed in time.',
        usage_state: 'released',
        completed_at: new Date(),
        updated_at: TEN_MINUTES_AGO,
      })
      .where('id', '=', id)
      .execute();

    const pass = await reconcile(tenant);
    expect(pass).toEqual({ repairs: [expect.objectContaining({ subject: `${id}:hold`, kind: 'release_hold' })], failed: [] });
    expect(await repairs(id)).toEqual([expect.objectContaining({ subject: `${id}:hold`, kind: 'release_hold' })]);
    expect(await ledger(id)).toEqual(['hold:600:hold', 'release:600:release']);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
    const hold = await api.db.selectFrom('credit_holds').select('remaining').where('reference', '=', `${id}:hold`).executeTakeFirstOrThrow();
    expect(hold.remaining).toBe(0);
    expect(await getProject(tenant, id)).toMatchObject({ status: 'failed', failure: { code: 'upload_expired' }, usage: { state: 'released', charged_seconds: 0 } });
  });

  // Old code (a25b1f9) had no reconciler and no settle_project: a project whose workflow died stayed `processing` with its money charged.
  it('a project whose workflow stopped twice is settled: languages failed and refunded once', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const id = await chargedProject(tenant, { status: 'processing', languages: { es_es: 'completed', ca_es: 'dubbing' } });
    // An earlier pass already started it again once; its workflow has stopped again since.
    await api.db
      .insertInto('reconciler_repairs')
      .values({ subject: `project/${id}`, kind: 'restart_project_workflow', detail: 'earlier' })
      .execute();
    expect((await getProject(tenant, id)).status).toBe('processing');

    const pass = await reconcile(tenant);
    expect(pass).toEqual({ repairs: [expect.objectContaining({ subject: `project/${id}`, kind: 'settle_project' })], failed: [] });
    expect(await repairs(id)).toEqual([
      { subject: `project/${id}`, kind: 'restart_project_workflow', detail: 'earlier' },
      expect.objectContaining({ subject: `project/${id}`, kind: 'settle_project' }),
    ]);
    const settled = await getProject(tenant, id);
    expect(settled).toMatchObject({ status: 'partially_completed', failure: null, usage: { state: 'charged', charged_seconds: 10, refunded_seconds: 10 } });
    const byLocale = Object.fromEntries(settled.languages.map((l: any) => [l.locale, l]));
    expect(byLocale.ca_es).toMatchObject({ status: 'failed', failure: { code: 'terminated' }, usage: { charged_seconds: 10, refunded_seconds: 10 } });
    expect(byLocale.es_es).toMatchObject({ status: 'completed', failure: null, usage: { charged_seconds: 10, refunded_seconds: 0 } });
    expect(await ledger(id)).toEqual(['hold:1200:hold', 'capture:200:capture', 'release:1000:release', 'refund:100:ca_es:refund']);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 100, reserved: 0 });
  });

  // Old code (a25b1f9) had no reconciler: a language whose workflow vanished stayed open and charged forever.
  it('a language stuck with no workflow is failed and refunded once', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    // Inconsistent on purpose: the project says it ended, one of its languages never did.
    const id = await chargedProject(tenant, { status: 'partially_completed', languages: { es_es: 'completed', ca_es: 'dubbing' } });

    const settle = { subject: `project/${id}/lang/ca_es`, kind: 'settle_language:1' };
    const expectedLedger = ['hold:1200:hold', 'capture:200:capture', 'release:1000:release', 'refund:100:ca_es:refund'];
    await withReconcilerSchedule(api, scheduleInput(tenant), async (pass) => {
      expect(await pass()).toEqual({ repairs: [expect.objectContaining(settle)], failed: [] });
      const settled = await getProject(tenant, id);
      expect(settled).toMatchObject({ status: 'partially_completed', usage: { state: 'charged', charged_seconds: 10, refunded_seconds: 10 } });
      const byLocale = Object.fromEntries(settled.languages.map((l: any) => [l.locale, l]));
      expect(byLocale.ca_es).toMatchObject({ status: 'failed', failure: { code: 'terminated' }, usage: { refunded_seconds: 10 } });
      expect(byLocale.es_es).toMatchObject({ status: 'completed', failure: null });
      expect(await repairs(id)).toEqual([expect.objectContaining(settle)]);
      expect(await ledger(id)).toEqual(expectedLedger);
      expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 100, reserved: 0 });

      // The same schedule triggered again finds nothing to repair: a repair happens once.
      expect(await pass()).toEqual({ repairs: [], failed: [] });
      expect(await repairs(id)).toEqual([expect.objectContaining(settle)]);
      expect(await ledger(id)).toEqual(expectedLedger);
      expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 100, reserved: 0 });
      expect(await getProject(tenant, id)).toEqual(settled);
    });
  });

  // ae776e7: both passes saw the workflow not running; one recorded `restart` and started it, the
  // other found `restart` recorded, took the project for one that stopped twice, and failed it
  // (hold released): the restarted workflow then dubbed a failed project.
  it('issue 26 item 8: two passes at once over the same stuck project: exactly one acts, the project is restarted and not refunded', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await validatingProjectWithoutWorkflow(tenant);
    // Each pass waits, when it judges the project, until the other has reached the same point
    // (or 3 s went by, when only one pass gets there): both decide from the same rows.
    let arrived = 0;
    let meet!: () => void;
    const met = new Promise<void>((resolve) => (meet = resolve));
    const gate = async () => {
      if (++arrived === 2) meet();
      await Promise.race([met, sleep(3000)]);
    };
    const temporal = describesWaitAt(api.temporal, `project/${project.id}`, gate);
    const passes = [0, 1].map(() =>
      createReconcilerActivities({
        db: api.db,
        temporal,
        taskQueue: api.config.temporal.taskQueue,
        reconcileGraceSeconds: GRACE,
        webhooks: { ...api.config.webhooks, publicBaseUrl: api.config.http.publicBaseUrl },
      }),
    );
    const results = await Promise.all(passes.map((p) => p.reconcile(scheduleInput(tenant))));

    const restart = { subject: `project/${project.id}`, kind: 'restart_project_workflow' };
    expect(results).toEqual(
      expect.arrayContaining([
        { repairs: [expect.objectContaining(restart)], failed: [] },
        { repairs: [], failed: [], skipped: expect.stringContaining('another reconciler pass') },
      ]),
    );
    expect(arrived).toBe(1);
    expect(await repairs(project.id)).toEqual([expect.objectContaining(restart)]);

    const done = await waitForCompleted(tenant, project.id);
    expect(done).toMatchObject({ status: 'completed', failure: null, usage: { state: 'charged', billable_seconds: 6, charged_seconds: 6, refunded_seconds: 0 } });
    const row = await api.db.selectFrom('projects').select(['status', 'usage_state', 'failure_code']).where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'completed', usage_state: 'charged', failure_code: null });
    expect(await ledger(project.id)).toEqual(['hold:600:hold', 'capture:60:capture', 'release:540:release']);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 60, reserved: 0 });
    expect(await repairs(project.id)).toEqual([expect.objectContaining(restart)]);
  }, 240_000);

  // ae776e7 took no lock: a whole-service pass ran beside a workspace's pass.
  it("issue 26 item 8: while a workspace's pass runs, another workspace's pass runs too and a whole-service pass skips", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const other = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const held = await validatingProjectWithoutWorkflow(tenant);
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const temporal = describesWaitAt(api.temporal, `project/${held.id}`, async () => {
      reached();
      await opened;
    });
    const deps = { db: api.db, taskQueue: api.config.temporal.taskQueue, reconcileGraceSeconds: GRACE, webhooks: { ...api.config.webhooks, publicBaseUrl: api.config.http.publicBaseUrl } };
    const first = createReconcilerActivities({ ...deps, temporal }).reconcile(scheduleInput(tenant));
    await atGate;
    try {
      // Another workspace's pass is not held up: it runs (and finds nothing of its own to repair).
      expect(await createReconcilerActivities({ ...deps, temporal: api.temporal }).reconcile(scheduleInput(other))).toEqual({ repairs: [], failed: [] });
      // A pass over the whole service would judge the held project too: it skips. (A grace of
      // a year keeps it off every other test's rows, were it to run.)
      const whole = await createReconcilerActivities({ ...deps, temporal: api.temporal }).reconcile({ graceSeconds: 365 * 24 * 3600 });
      expect(whole).toEqual({ repairs: [], failed: [], skipped: expect.any(String) });
      expect(await repairs(held.id)).toEqual([]);
    } finally {
      open();
    }
    expect(await first).toEqual({ repairs: [expect.objectContaining({ subject: `project/${held.id}`, kind: 'restart_project_workflow' })], failed: [] });
    await waitForCompleted(tenant, held.id);
    expect(await ledger(held.id)).toEqual(['hold:600:hold', 'capture:60:capture', 'release:540:release']);
  }, 240_000);
});

describe('webhook events a lost relay left', () => {
  it('are relayed by the reconciler: the delivery reaches the receiver and the events are marked, once', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      await api.db
        .insertInto('webhook_endpoints')
        .values({
          id: randomUUID(),
          workspace_id: tenant.workspace.id,
          url: receiver.url('/lost-relay'),
          secret: `whsec_${randomUUID()}`,
          enabled_events: ['language.failed'],
          description: null,
          deleted_at: null,
        })
        .execute();
      const id = await writeChargedProject(api.db, CPS, tenant, { status: 'processing', languages: { es_es: 'completed', ca_es: 'dubbing' } });
      // ca_es fails and the project ends through the lifecycle, which appends their events; the
      // worker that committed this is lost before it relays them (nothing starts a delivery).
      const settings = { publicBaseUrl: api.config.http.publicBaseUrl };
      await api.db.transaction().execute(async (trx) => {
        await failLanguage(trx, { projectId: id, locale: 'ca_es', attempt: 'current', code: 'engine_failed', detail: 'worker lost' }, settings);
        await settleProjectOutcome(trx, id, settings);
      });
      await sql`update webhook_events set created_at = now() - interval '10 minutes' where project_id = ${id}`.execute(api.db);
      const unrelayed = () => api.db.selectFrom('webhook_events').select('type').where('project_id', '=', id).where('relayed_at', 'is', null).orderBy('sequence').execute();
      expect((await unrelayed()).map((e) => e.type)).toEqual(['language.failed', 'project.completed']);

      await withReconcilerSchedule(api, scheduleInput(tenant), async (pass) => {
        const relay = { subject: `project/${id}/webhook-events`, kind: 'relay_webhook_events', detail: expect.any(String) };
        expect(await pass()).toEqual({ repairs: [relay], failed: [] });
        await waitFor('language.failed at the receiver', async () => receiver.received.some((r) => r.path === '/lost-relay' && r.body?.type === 'language.failed'), 30_000, 250);
        expect(await unrelayed()).toEqual([]);
        // Relayed once: the next pass finds nothing left to relay.
        expect(await pass()).toEqual({ repairs: [], failed: [] });
      });
      expect(receiver.received.filter((r) => r.path === '/lost-relay').map((r) => [r.body.type, r.body.locale])).toEqual([['language.failed', 'ca_es']]);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
