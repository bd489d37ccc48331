import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { claimReviewUpdate, type TranscriptReviewResult } from '../../src/shared/review-contracts';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { startReviewWorkflow } from '../../src/temporal/start-review-workflow';
import { consoleRun } from '../helpers/console-run';
import { createTenant } from '../helpers/fixtures';
import { createProject, getProjectView, projectBody } from '../helpers/projects';
import type { TestApi } from '../helpers/test-api';
import { startTestWorker } from '../helpers/test-worker';
import { CPS, review, transcriptReviewSuite } from '../helpers/transcript-review-suite';

// Human transcript review (docs/design.md#review) on the real stack: the Koa app over HTTP, real
// PostgreSQL, the real Temporal dev server and a real worker with the real engines; reviewers
// act through the real console. This file: the quote, its refusals, and submitting a review
// (the charge, replays, races, the deadline). The reconciler and a reviewer's verification are
// transcript-review-workflow.test.ts.

let api: TestApi;
let hastyApi: TestApi;
const { reviewWorkflows, validatedProject, reviewRows } = transcriptReviewSuite((stack) => ({ api, hastyApi } = stack));

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
