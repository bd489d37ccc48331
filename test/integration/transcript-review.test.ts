import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { getBalance } from '../../src/db/credits';
import { claimReviewUpdate, submitTranscriptUpdate, type TranscriptReviewResult } from '../../src/shared/review-contracts';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { startReviewWorkflow } from '../../src/temporal/start-review-workflow';
import { consoleRun } from '../helpers/console-run';
import { runCommand } from '../helpers/run-command';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// Human transcript review (docs/design.md#review) on the real stack: the Koa app over HTTP, real
// PostgreSQL, the real Temporal dev server and a real worker with the real engines; reviewers
// act through the real console.

const CPS = 10;
const SECONDS = 4;
let api: TestApi;
/** The same app with a 2-second review deadline, on the same task queue and worker. */
let hastyApi: TestApi;
let worker: TestWorker;
let dir: string;
let clip: Buffer;
const reviewWorkflows: string[] = [];

beforeAll(async () => {
  dir = makeTempDir('transcript-review-');
  clip = await spokenClip(dir, 'Good morning. The weather is nice today.', SECONDS);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  hastyApi = await startTestApi({ TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue, TRANSCRIPT_REVIEW_DEADLINE_SECONDS: '2' });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  process.env.TEMPORAL_TASK_QUEUE = api.config.temporal.taskQueue; // what the console's config reads
}, 90_000);
afterAll(async () => {
  delete process.env.TEMPORAL_TASK_QUEUE;
  // Reviews nobody finished would wait 72 h: end them so the dev server is left clean.
  for (const id of reviewWorkflows)
    await api.temporal.workflow
      .getHandle(id)
      .terminate('test done')
      .catch(() => undefined);
  await worker?.stop();
  await hastyApi?.close();
  await api?.close();
  if (dir) removeTempDir(dir);
});

const review = (on: TestApi, tenant: TestTenant, projectId: string, body: unknown, key?: string) =>
  request(on.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/transcript-review`, { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });

/** A project validated and charged (no media): what the quote and its refusals need. */
async function validatedProject(
  tenant: TestTenant,
  options: { sourceLocale?: string; billableSeconds?: number | null; usageState?: 'charged' | 'pending_validation' | 'limit_exceeded' } = {},
): Promise<string> {
  const id = randomUUID();
  const billable = options.billableSeconds === undefined ? 61 : options.billableSeconds;
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name: 'review me',
      source_type: 'upload',
      // As a created upload project has them (the API answers them as they are: the OpenAPI contract).
      source_file_name: 'review-me.mp4',
      source_size_bytes: 1_000_000,
      source_locale: options.sourceLocale ?? 'en_us',
      target_locales: ['es_es'],
      source_duration_seconds: billable === null ? null : billable - 0.5,
      status: options.usageState === 'pending_validation' ? 'validating' : options.usageState === 'limit_exceeded' ? 'failed' : 'completed',
      phase: 'completed',
      max_billable_seconds: 600,
      credits_per_second: CPS,
      billable_seconds: billable,
      usage_state: options.usageState ?? 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  return id;
}

async function reviewRows(tenant: TestTenant, projectId: string) {
  const [counts, reviews, ledger, project] = await Promise.all([
    workspaceRowCounts(api, tenant.workspace.id),
    api.db.selectFrom('transcript_reviews').selectAll().where('project_id', '=', projectId).execute(),
    api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute(),
    api.db
      .selectFrom('projects')
      .select(['transcript_review_status', 'transcript_review_requested_at', 'transcript_review_verified_at', 'charged_seconds', 'usage_state'])
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { counts, reviews, ledger, project };
}

describe('quote and refusals', () => {
  it('rounds the source duration up to whole minutes; a preview writes nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    for (const [billable, minutes] of [
      [61, 120],
      [60, 60],
      [1, 60],
      [121, 180],
    ] as const) {
      const id = await validatedProject(tenant, { billableSeconds: billable });
      const before = await reviewRows(tenant, id);
      const res = await review(api, tenant, id, { max_billable_seconds: 600 });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        review: { preview_only: true, already_requested: false, billable_seconds: minutes, credits: minutes * CPS, max_billable_seconds: 600, within_limit: true, charged_now_seconds: 0 },
        project: { id, transcript_review: { requested: false, status: 'not_requested' } },
      });
      expect(await reviewRows(tenant, id)).toEqual(before);
      expect(before.reviews).toEqual([]);
    }
  });

  it('answers a request over max_billable_seconds with the quote and charges nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 61 });
    const before = await reviewRows(tenant, id);
    const res = await review(api, tenant, id, { max_billable_seconds: 119, preview_only: false }, randomUUID());
    expect(res.status).toBe(200);
    expect(res.body.data.review).toEqual({
      preview_only: false,
      already_requested: false,
      billable_seconds: 120,
      credits: 1200,
      max_billable_seconds: 119,
      within_limit: false,
      charged_now_seconds: 0,
    });
    expect(res.body.data.project).toMatchObject({ id, transcript_review: { requested: false, status: 'not_requested', requested_at: null, verified_at: null } });
    const after = await reviewRows(tenant, id);
    expect(after.reviews).toEqual([]);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.counts.balance).toEqual(before.counts.balance);
    expect(after.project).toEqual(before.project);
  });

  it('refuses a non-English source with 409 transcript_review_unavailable, writing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { sourceLocale: 'es_es' });
    const before = await reviewRows(tenant, id);
    for (const body of [{ max_billable_seconds: 600 }, { max_billable_seconds: 600, preview_only: false }]) {
      const res = await review(api, tenant, id, body, randomUUID());
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'transcript_review_unavailable' });
      expect(res.body.error.message).toContain('es_es');
    }
    expect(await reviewRows(tenant, id)).toEqual(before);
  });

  it('refuses a project whose billable seconds are unknown (409 project_not_ready) or that was never charged (409 project_not_billable)', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const uploading = (await createProject(api, tenant, projectBody())).body.data.id as string;
    const validating = await validatedProject(tenant, { billableSeconds: null, usageState: 'pending_validation' });
    const overCeiling = await validatedProject(tenant, { usageState: 'limit_exceeded' });
    for (const [id, code] of [
      [uploading, 'project_not_ready'],
      [validating, 'project_not_ready'],
      [overCeiling, 'project_not_billable'],
    ] as const) {
      const before = await reviewRows(tenant, id);
      const res = await review(api, tenant, id, { max_billable_seconds: 600, preview_only: false }, randomUUID());
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'conflict_error', code });
      expect(await reviewRows(tenant, id)).toEqual(before);
    }
  });

  it('answers bad input with 400 naming the field, and writes nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant);
    const before = await reviewRows(tenant, id);
    const cases: [unknown, string, string, boolean][] = [
      [{}, 'missing_parameter', 'max_billable_seconds', true],
      [{ max_billable_seconds: 0 }, 'invalid_parameter', 'max_billable_seconds', true],
      [{ max_billable_seconds: '600' }, 'invalid_parameter', 'max_billable_seconds', true],
      [{ max_billable_seconds: 1.5 }, 'invalid_parameter', 'max_billable_seconds', true],
      [{ max_billable_seconds: 600, preview_only: 'no' }, 'invalid_parameter', 'preview_only', true],
      [{ max_billable_seconds: 600, reviewer: 'me' }, 'unknown_parameter', 'reviewer', true],
      [{ max_billable_seconds: 600, preview_only: false }, 'idempotency_key_missing', 'Idempotency-Key', false],
    ];
    for (const [body, code, param, withKey] of cases) {
      const res = await review(api, tenant, id, body, withKey ? randomUUID() : undefined);
      expect({ body, status: res.status, error: res.body.error }).toMatchObject({ status: 400, error: { type: 'invalid_request_error', code, param } });
    }
    expect(await reviewRows(tenant, id)).toEqual(before);
  });

  it('refuses a submission the workspace cannot pay for with 402, writing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 1199, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 61 });
    const before = await reviewRows(tenant, id);
    const res = await review(api, tenant, id, { max_billable_seconds: 600, preview_only: false }, randomUUID());
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
    expect(res.body.error.message).toContain('1200 credits');
    expect(await reviewRows(tenant, id)).toEqual(before);
    await expect(api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id)).describe()).rejects.toThrow();
  });

  it('answers another workspace with the same 404 as an unknown project', async () => {
    const owner = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const stranger = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(owner);
    const res = await review(api, stranger, id, { max_billable_seconds: 600, preview_only: false }, randomUUID());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found', param: 'project_id' });
    expect((await reviewRows(owner, id)).reviews).toEqual([]);
  });
});

describe('submitting a review', () => {
  it('charges once through the ledger; a replay is identical and a repeat says already_requested and charges nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 61 });
    reviewWorkflows.push(transcriptReviewWorkflowId(id));
    const key = randomUUID();
    const first = await review(api, tenant, id, { max_billable_seconds: 120, preview_only: false }, key);
    expect(first.status).toBe(200);
    expect(first.body.data.review).toEqual({
      preview_only: false,
      already_requested: false,
      billable_seconds: 120,
      credits: 1200,
      max_billable_seconds: 120,
      within_limit: true,
      charged_now_seconds: 120,
    });
    expect(first.body.data.project).toMatchObject({ id, status: 'completed', transcript_review: { requested: true, status: 'requested', verified_at: null } });
    expect(first.body.data.project.transcript_review.requested_at).toEqual(expect.any(String));

    const rows = await reviewRows(tenant, id);
    expect(rows.ledger).toEqual([{ reference: `${id}:review:charge`, kind: 'capture', amount: 1200 }]);
    expect(rows.counts.balance).toEqual({ granted: 100_000, captured: 1200, reserved: 0 });
    expect(rows.reviews).toEqual([expect.objectContaining({ status: 'requested', billable_seconds: 120, credits: 1200, reviewer: null, refunded_credits: 0 })]);
    const deadline = rows.reviews[0]!.deadline_at.getTime() - rows.reviews[0]!.requested_at.getTime();
    expect(deadline).toBe(72 * 3600 * 1000);
    expect(rows.project).toMatchObject({ transcript_review_status: 'requested', charged_seconds: 0, usage_state: 'charged' });
    // The review workflow is running, waiting for a reviewer.
    const description = await api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id)).describe();
    expect(description.status.name).toBe('RUNNING');

    const replay = await review(api, tenant, id, { max_billable_seconds: 120, preview_only: false }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await review(api, tenant, id, { max_billable_seconds: 600, preview_only: false }, key);
    expect(reused.status).toBe(422);

    const repeat = await review(api, tenant, id, { max_billable_seconds: 600, preview_only: false }, randomUUID());
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.review).toMatchObject({ already_requested: true, charged_now_seconds: 0, billable_seconds: 120, within_limit: true });
    const preview = await review(api, tenant, id, { max_billable_seconds: 600 });
    expect(preview.body.data).toEqual({
      review: { preview_only: true, already_requested: true, billable_seconds: 120, credits: 1200, max_billable_seconds: 600, within_limit: true, charged_now_seconds: 0 },
      project: { id, transcript_review: { requested: true, status: 'requested' } },
    });
    const after = await reviewRows(tenant, id);
    expect(after.ledger).toEqual(rows.ledger);
    expect(after.counts.balance).toEqual(rows.counts.balance);
    expect(after.reviews).toEqual(rows.reviews);
  });

  it('accepts a claim that reaches the workflow in its very first task (a busy worker), once the review is loaded', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 61 });
    expect((await review(api, tenant, id, { max_billable_seconds: 120, preview_only: false }, randomUUID())).status).toBe(200);
    // Run the review's workflow on a queue no worker polls yet, so the claim is there first.
    const workflowId = transcriptReviewWorkflowId(id);
    reviewWorkflows.push(workflowId);
    await api.temporal.workflow.getHandle(workflowId).terminate('moved to an idle queue');
    const idle = `idle-${randomUUID()}`;
    await startReviewWorkflow(api.temporal, { taskQueue: idle, timeoutMs: 5000 }, { id, workspace_id: tenant.workspace.id });
    const handle = api.temporal.workflow.getHandle(workflowId);
    const claimed = handle.executeUpdate(claimReviewUpdate, { args: [{ reviewer: 'early' }] });
    await new Promise((r) => setTimeout(r, 1000)); // ordering only: let the update reach the server first
    const late = await startTestWorker(api.db, { taskQueue: idle });
    try {
      expect(await claimed).toMatchObject({ status: 'in_review', reviewer: 'early' });
      expect(await api.db.selectFrom('transcript_reviews').select(['status', 'reviewer']).where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'in_review', reviewer: 'early' });
      // The update was accepted before the workflow's first activity (loading the review) ran.
      const events = (await handle.fetchHistory()).events ?? [];
      const accepted = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
      const firstActivity = events.findIndex((e) => e.activityTaskScheduledEventAttributes);
      expect(accepted).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(firstActivity);
    } finally {
      await handle.terminate('test done').catch(() => undefined);
      await late.stop();
    }
  });

  it('two submissions racing with different keys charge once', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 30 });
    reviewWorkflows.push(transcriptReviewWorkflowId(id));
    const [a, b] = await Promise.all([0, 1].map(() => review(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID())));
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect([a!.body.data.review.charged_now_seconds, b!.body.data.review.charged_now_seconds].sort()).toEqual([0, 60]);
    const rows = await reviewRows(tenant, id);
    expect(rows.ledger).toEqual([{ reference: `${id}:review:charge`, kind: 'capture', amount: 600 }]);
    expect(rows.reviews).toHaveLength(1);
  });

  it('refunds a review not verified by its deadline once, and ends it expired', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 61 });
    const res = await review(hastyApi, tenant, id, { max_billable_seconds: 600, preview_only: false }, randomUUID());
    expect(res.status).toBe(200);
    expect(res.body.data.review.charged_now_seconds).toBe(120);

    const handle = api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id));
    expect((await handle.result()) as TranscriptReviewResult).toEqual({ status: 'expired', redubbed: [], redubFailed: [] });
    const view = await getProjectView(api, tenant, id);
    expect(view.transcript_review).toMatchObject({ requested: true, status: 'expired', verified_at: null });
    const rows = await reviewRows(tenant, id);
    expect(rows.ledger).toEqual([
      { reference: `${id}:review:charge`, kind: 'capture', amount: 1200 },
      { reference: `${id}:review:refund`, kind: 'refund', amount: 1200 },
    ]);
    expect(rows.reviews).toEqual([expect.objectContaining({ status: 'expired', refunded_credits: 1200, expired_at: expect.any(Date) })]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 100_000, captured: 0, reserved: 0 });

    // Once: the workflow started again (a retried request, an operator) finds it expired and
    // refunds nothing more; a reviewer can no longer claim it.
    await startReviewWorkflow(api.temporal, { taskQueue: api.config.temporal.taskQueue, timeoutMs: 5000 }, { id, workspace_id: tenant.workspace.id });
    expect(await api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id)).result()).toMatchObject({ status: 'expired' });
    const claim = await consoleRun('reviews:claim', id, '--reviewer', 'late');
    expect(claim.code).toBe(1);
    expect(claim.out).toContain('the review is expired');
    const again = await reviewRows(tenant, id);
    expect(again.ledger).toEqual(rows.ledger);
    expect(again.reviews).toEqual(rows.reviews);
  }, 60_000);
});

describe('the reconciler', () => {
  it('starts the workflow of an open review that has none; an overdue one is then refunded once and expires', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const id = await validatedProject(tenant, { billableSeconds: 30 });
    expect((await review(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID())).status).toBe(200);
    const workflowId = transcriptReviewWorkflowId(id);
    // Its run is gone (terminated from the Web UI), and its deadline has passed meanwhile.
    await api.temporal.workflow.getHandle(workflowId).terminate('lost');
    await api.db
      .updateTable('transcript_reviews')
      .set({ deadline_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', id)
      .execute();

    const pass = await api.temporal.workflow.execute('reconcilerWorkflow', {
      taskQueue: api.config.temporal.taskQueue,
      workflowId: `reconcile-review-${id}`,
      args: [{ workspaceId: tenant.workspace.id, graceSeconds: 0 }],
    });
    expect(pass).toEqual({ repairs: [{ subject: workflowId, kind: 'restart_review_workflow', detail: 'review requested with no running workflow; started it again' }], failed: [] });
    expect(await api.temporal.workflow.getHandle(workflowId).result()).toEqual({ status: 'expired', redubbed: [], redubFailed: [] });
    const rows = await reviewRows(tenant, id);
    expect(rows.ledger).toEqual([
      { reference: `${id}:review:charge`, kind: 'capture', amount: 600 },
      { reference: `${id}:review:refund`, kind: 'refund', amount: 600 },
    ]);
    expect(rows.project.transcript_review_status).toBe('expired');
    // Nothing left to repair.
    const next = await api.temporal.workflow.execute('reconcilerWorkflow', {
      taskQueue: api.config.temporal.taskQueue,
      workflowId: `reconcile-review-again-${id}`,
      args: [{ workspaceId: tenant.workspace.id, graceSeconds: 0 }],
    });
    expect(next).toEqual({ repairs: [], failed: [] });
    expect((await reviewRows(tenant, id)).ledger).toEqual(rows.ledger);
  });
});

describe('a reviewer verifies the transcript', () => {
  it('claim → export → a refused file → corrected VTT → verified; the completed language is re-dubbed from it, free, revision 2', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }));
    const id = created.body.data.id as string;
    reviewWorkflows.push(transcriptReviewWorkflowId(id));
    expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
    const done = await waitForProjectView(api, tenant, id, 'the project completed', (p) => p.status === 'completed', 180_000);
    expect(done.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 1 });
    const machine = await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute();
    expect(machine.map((s) => s.text).join(' ')).not.toMatch(/elephant/i);
    const firstFiles = await api.db.selectFrom('deliverables').select(['type', 'format', 'storage_key']).where('project_id', '=', id).orderBy('format').execute();
    const moneyBefore = {
      balance: await getBalance(api.db, tenant.workspace.id),
      usage: done.usage,
      ledger: await api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).orderBy('id').execute(),
    };

    // Requested: charged once (4 s rounds up to one minute).
    const submitted = await review(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.review).toMatchObject({ billable_seconds: 60, credits: 600, charged_now_seconds: 60 });

    const queue = await consoleRun('reviews:list');
    expect(queue.code).toBe(0);
    expect(queue.out).toMatch(new RegExp(`${id}\\s+requested\\s+age `));

    const claimed = await consoleRun('reviews:claim', id, '--reviewer', 'ada');
    expect({ code: claimed.code, out: claimed.code === 0 ? '' : claimed.out }).toEqual({ code: 0, out: '' });
    expect(claimed.out).toContain(`${id}: in_review (ada,`);
    expect(await api.db.selectFrom('transcript_reviews').select(['status', 'reviewer']).where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'in_review', reviewer: 'ada' });
    expect((await getProjectView(api, tenant, id)).transcript_review.status).toBe('in_review');
    expect((await consoleRun('reviews:claim', id, '--reviewer', 'bob')).out).toContain('the review is in_review (ada)');

    // The machine transcript, with its timings, in both formats.
    const vtt = await consoleRun('reviews:export', id, '--format', 'vtt');
    expect(vtt.code).toBe(0);
    expect(vtt.out.startsWith('WEBVTT')).toBe(true);
    // What a person pipes to a file is on stdout alone, from the real executable too.
    expect(vtt.stderr).toBe('');
    expect(vtt.stdout).toBe(vtt.out);
    const piped = await runCommand(process.execPath, ['bin/dubbing-console.js', 'reviews:export', id, '--format', 'vtt'], { cwd: path.resolve(__dirname, '..', '..') });
    expect(piped).toEqual({ code: 0, stdout: `${vtt.stdout}\n`, stderr: '' });
    for (const segment of machine) expect(vtt.out).toContain(segment.text);
    const json = await consoleRun('reviews:export', id, '--format', 'json');
    expect(JSON.parse(json.out)).toEqual({
      project_id: id,
      duration_seconds: expect.any(Number),
      cues: machine.map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text })),
    });

    // Invalid: the console names the cue and sends nothing; the workflow refuses it too.
    const invalid = path.join(dir, 'invalid.vtt');
    writeFileSync(invalid, 'WEBVTT\n\n00:00:00.200 --> 00:00:01.500\nGood morning.\n\n00:00:01.600 --> 00:00:09.000\nThe elephant is big.\n');
    const refused = await consoleRun('reviews:submit', id, '--file', invalid);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('cue 2 (00:00:01.600 → 00:00:09.000) ends after the source');
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')).toHaveLength(1);
    expect(refused.out).toContain('nothing was submitted');
    const handle = api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id));
    const outOfOrder = [
      { startSeconds: 2, endSeconds: 3, text: 'The elephant is big.' },
      { startSeconds: 1, endSeconds: 1.5, text: 'Good morning.' },
    ];
    const rejected = await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: outOfOrder }] }).catch((err: unknown) => err);
    expect(rejected).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((rejected as WorkflowUpdateFailedError).cause?.message).toContain('cue 2 (00:00:01.000 → 00:00:01.500) starts before cue 1 ends');
    const empty = await handle.executeUpdate(submitTranscriptUpdate, { args: [{ reviewer: 'ada', cues: [{ startSeconds: 0, endSeconds: 1, text: '  ' }] }] }).catch((err: unknown) => err);
    expect((empty as WorkflowUpdateFailedError).cause?.message).toContain('cue 1 (00:00:00.000 → 00:00:01.000) has no text');
    expect(await api.db.selectFrom('transcript_reviews').select(['status', 'verified_at']).where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'in_review', verified_at: null });
    expect(await api.db.selectFrom('verified_transcript_segments').selectAll().where('project_id', '=', id).execute()).toEqual([]);

    // The corrected transcript, with a word the machine did not hear.
    const corrected = path.join(dir, 'corrected.vtt');
    writeFileSync(corrected, 'WEBVTT\n\n00:00:00.200 --> 00:00:01.500\nGood morning.\n\n00:00:01.600 --> 00:00:03.600\nThe elephant is big.\n');
    const verified = await consoleRun('reviews:submit', id, '--file', corrected);
    expect(verified.code).toBe(0);
    expect(verified.out).toContain(`${id}: verified at `);
    const reviewRow = await api.db.selectFrom('transcript_reviews').selectAll().where('project_id', '=', id).executeTakeFirstOrThrow();
    expect(reviewRow).toMatchObject({ status: 'verified', reviewer: 'ada', verified_at: expect.any(Date), refunded_credits: 0 });
    expect(await api.db.selectFrom('verified_transcript_segments').select(['position', 'start_seconds', 'end_seconds', 'text']).where('project_id', '=', id).orderBy('position').execute()).toEqual([
      { position: 0, start_seconds: 0.2, end_seconds: 1.5, text: 'Good morning.' },
      { position: 1, start_seconds: 1.6, end_seconds: 3.6, text: 'The elephant is big.' },
    ]);
    // The machine transcript stays as recognized.
    expect(await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', id).orderBy('position').execute()).toEqual(machine);

    const result = (await handle.result()) as TranscriptReviewResult;
    expect(result).toEqual({ status: 'verified', redubbed: ['es_es'], redubFailed: [] });
    const redubbed = await getProjectView(api, tenant, id);
    expect(redubbed.transcript_review).toEqual({ requested: true, status: 'verified', requested_at: expect.any(String), verified_at: reviewRow.verified_at!.toISOString() });
    expect(redubbed.languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 2 });
    expect(redubbed.languages[0].deliverables).toHaveLength(6); // the dubbed video included (docs/video.md)

    // New captions, translated by apertium from the verified transcript.
    const captions = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
    expect(captions.status).toBe(200);
    expect(captions.body).toContain('elefante');
    const newFiles = await api.db.selectFrom('deliverables').select(['type', 'format', 'storage_key']).where('project_id', '=', id).orderBy('format').execute();
    expect(newFiles.map((f) => f.storage_key)).toEqual(firstFiles.map((f) => f.storage_key.replace('/languages/es_es/', '/languages/es_es/r2/')));
    const language = await api.db
      .selectFrom('project_languages')
      .select(['revision', 'transcript_kind', 'attempt', 'charged_seconds', 'refunded_seconds'])
      .where('project_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(language).toEqual({ revision: 2, transcript_kind: 'verified', attempt: 1, charged_seconds: 4, refunded_seconds: 0 });

    // The re-dub was free: the only new ledger entry is the review's own charge.
    expect(redubbed.usage).toEqual(moneyBefore.usage);
    expect(await api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).orderBy('id').execute()).toEqual([
      ...moneyBefore.ledger,
      { reference: `${id}:review:charge`, kind: 'capture', amount: 600 },
    ]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ ...moneyBefore.balance, captured: moneyBefore.balance.captured + 600 });

    // The workflow's history tells the story: both updates, then the re-dub.
    const history = await handle.fetchHistory();
    const accepted = history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.name);
    expect(accepted).toEqual([claimReviewUpdate.name, submitTranscriptUpdate.name]);
    const activities = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    // (findMediaQueue: the re-dub runs on a media pool that serves the language.)
    expect(activities).toEqual(['loadReview', 'claimReview', 'verifyTranscript', 'emitProjectEvents', 'planRedubs', 'findMediaQueue', 'redubLanguage', 'planRedubs', 'emitProjectEvents']);
    // Webhook events (recorded with or without endpoints): the verification, then the re-dub as a new revision.
    const events = await api.db.selectFrom('webhook_events').select(['type', 'discriminator', 'sequence', 'payload']).where('project_id', '=', id).orderBy('sequence').execute();
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'project.validated'],
      [2, 'language.completed'],
      [3, 'project.completed'],
      [4, 'transcript_review.verified'],
      [5, 'language.completed'],
    ]);
    expect(events[4]!.discriminator).toBe('es_es:1:2');
    expect((events[3]!.payload as any).transcript_review).toMatchObject({ requested: true, status: 'verified' });
    expect((events[4]!.payload as any).languages[0]).toMatchObject({ locale: 'es_es', status: 'completed', revision: 2 });

    expect((await consoleRun('reviews:list')).out).not.toContain(id);

    // A language added after verification, through POST /languages, starts from the verified
    // transcript, at revision 1.
    const addition = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/languages`, {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: { target_locales: ['ca_es'], max_billable_seconds: 600, preview_only: false },
    });
    expect(addition.status).toBe(200);
    expect(addition.body.data.addition).toMatchObject({ new_locales: ['ca_es'], preview_only: false });
    await waitForProjectView(api, tenant, id, 'ca_es dubbed', (p) => p.languages.some((l: any) => l.locale === 'ca_es' && l.status === 'completed'), 240_000);
    const catalan = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=ca_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
    expect(catalan.body).toContain('elefant');
    expect(await api.db.selectFrom('project_languages').select(['revision', 'transcript_kind']).where('project_id', '=', id).where('locale', '=', 'ca_es').executeTakeFirstOrThrow()).toEqual({
      revision: 1,
      transcript_kind: 'verified',
    });
  }, 300_000);
});
