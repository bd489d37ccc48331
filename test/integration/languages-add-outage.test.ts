import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { getBalance } from '../../src/db/credits';
import { projectWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant } from '../helpers/fixtures';
import { dubbedProject, postLanguages, projectLedger, waitForProjectWorkflowClosed } from '../helpers/language-additions';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { waitForProjectView } from '../helpers/projects';
import { withReconcilerSchedule } from '../helpers/reconciler-schedule';
import { startOutageStack, type OutageStack } from '../helpers/outage-stack';
import type { CuttableProxy } from '../helpers/tcp-proxy';
import type { TestApi } from '../helpers/test-api';

// An addition commits, then tells the project's workflow. The API reaches the real dev server
// through a proxy the test cuts between the two; the worker keeps its own connection. What was
// committed stands: the same request retried later only tells the workflow, and a lost signal
// nobody retries is picked up by the reconciler.

const CPS = 10;
let proxy: CuttableProxy;
let api: TestApi;
let stack: OutageStack;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = makeTempDir('lang-outage-');
  clip = await spokenClip(dir, 'Bread is baked early in the morning.', 3);
  stack = await startOutageStack({ worker: true, env: { UPLOAD_PART_SIZE_BYTES: String(64 * 1024) } });
  ({ proxy, api } = stack);
}, 60_000);
afterAll(async () => {
  await stack.close();
  removeTempDir(dir);
});

/** Adds ca_es with Temporal cut off: 503 after the addition committed. */
async function addWhileTemporalIsDown(tenant: Awaited<ReturnType<typeof createTenant>>, id: string, b: number, key: string) {
  const ledgerBefore = await projectLedger(api, id);
  await proxy.cut();
  try {
    const refused = await postLanguages(api, tenant, id, { target_locales: ['ca_es'], max_billable_seconds: b, preview_only: false }, key);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  } finally {
    await proxy.restore();
  }
  // Committed before the outage: the charge, the queued language, the reopened project, and the
  // recovery point of the key (no stored response, no lock), so a retry only signals.
  expect(await projectLedger(api, id)).toEqual([...ledgerBefore, `capture:${b * CPS}:ca_es:charge:1`]);
  const project = await api.db.selectFrom('projects').select(['status', 'target_locales', 'charged_seconds']).where('id', '=', id).executeTakeFirstOrThrow();
  expect(project).toEqual({ status: 'processing', target_locales: ['es_es', 'ca_es'], charged_seconds: 2 * b });
  const row = await api.db.selectFrom('project_languages').select(['status', 'attempt_charged_seconds']).where('project_id', '=', id).where('locale', '=', 'ca_es').executeTakeFirstOrThrow();
  expect(row).toEqual({ status: 'queued', attempt_charged_seconds: b });
  const idem = await api.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).where('key', '=', key).executeTakeFirstOrThrow();
  expect(idem).toMatchObject({ recovery_point: 'languages_added', response_status: null, locked_at: null });
  return ledgerBefore;
}

it('with Temporal unreachable after the commit: 503; the retried request tells the workflow, which dubs the language, charged once', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const done = await dubbedProject(api, tenant, clip, { target_locales: ['es_es'] });
  const b: number = done.usage.billable_seconds;
  const firstRun = await waitForProjectWorkflowClosed(api, done.id);
  const key = randomUUID();
  const ledgerBefore = await addWhileTemporalIsDown(tenant, done.id, b, key);
  // The signal never arrived: no new run.
  expect((await api.temporal.workflow.getHandle(projectWorkflowId(done.id)).describe()).runId).toBe(firstRun.runId);

  const retried = await postLanguages(api, tenant, done.id, { target_locales: ['ca_es'], max_billable_seconds: b, preview_only: false }, key);
  expect(retried.status).toBe(200);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
  expect(retried.body.data.addition).toEqual({
    preview_only: false,
    existing_locales: [],
    new_locales: ['ca_es'],
    billable_seconds: b,
    credits: b * CPS,
    max_billable_seconds: b,
    within_limit: true,
    charged_now_seconds: b,
  });
  expect(retried.body.data.project).toMatchObject({ target_locales: ['es_es', 'ca_es'], usage: { charged_seconds: 2 * b } });

  const finished = await waitForProjectView(api, tenant, done.id, 'project completed again', (p) => p.status === 'completed', 120_000);
  expect(finished.languages.find((l: any) => l.locale === 'ca_es')).toMatchObject({ status: 'completed' });
  expect(finished.languages.find((l: any) => l.locale === 'ca_es').deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)
  const secondRun = await waitForProjectWorkflowClosed(api, done.id);
  expect(secondRun.runId).not.toBe(firstRun.runId);
  expect(await projectLedger(api, done.id)).toEqual([...ledgerBefore, `capture:${b * CPS}:ca_es:charge:1`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 2 * b * CPS, reserved: 0 });
  // From now on the key replays the retry's answer.
  const replay = await postLanguages(api, tenant, done.id, { target_locales: ['ca_es'], max_billable_seconds: b, preview_only: false }, key);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(retried.body);
}, 240_000);

it('a lost signal that nobody retries: the reconciler restarts the project workflow (even one it restarted before), which dubs the added language', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const done = await dubbedProject(api, tenant, clip, { target_locales: ['es_es'] });
  const b: number = done.usage.billable_seconds;
  // Its workflow was already restarted once, before the addition (e.g. a start lost at upload/complete).
  await api.db
    .insertInto('reconciler_repairs')
    .values({ subject: projectWorkflowId(done.id), kind: 'restart_project_workflow', detail: 'earlier' })
    .execute();
  const ledgerBefore = await addWhileTemporalIsDown(tenant, done.id, b, randomUUID());
  // Older than the reconciler's grace period, as a forgotten addition would be.
  await api.db
    .updateTable('projects')
    .set({ updated_at: sql<Date>`now() - interval '10 minutes'` })
    .where('id', '=', done.id)
    .execute();
  await api.db
    .updateTable('project_languages')
    .set({ updated_at: sql<Date>`now() - interval '10 minutes'` })
    .where('project_id', '=', done.id)
    .execute();

  const result = await withReconcilerSchedule(api, { workspaceId: tenant.workspace.id, graceSeconds: 60 }, (pass) => pass());
  expect(result).toEqual({ repairs: [expect.objectContaining({ subject: projectWorkflowId(done.id), kind: 'restart_project_workflow:additions:1' })], failed: [] });
  const finished = await waitForProjectView(api, tenant, done.id, 'project completed again', (p) => p.status === 'completed', 120_000);
  expect(finished.languages.find((l: any) => l.locale === 'ca_es')).toMatchObject({ status: 'completed', usage: { charged_seconds: b, refunded_seconds: 0 } });
  await waitForProjectWorkflowClosed(api, done.id);
  expect(await projectLedger(api, done.id)).toEqual([...ledgerBefore, `capture:${b * CPS}:ca_es:charge:1`]);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 2 * b * CPS, reserved: 0 });
}, 240_000);
