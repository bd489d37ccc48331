import { randomUUID } from 'node:crypto';
import { captureFromHold, getBalance, holdCredits, releaseHold } from '../../src/db/credits';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { additionRows, postLanguages, projectLedger } from '../helpers/language-additions';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// max_billable_seconds has no upper bound in the contract but the 32-bit column a project keeps
// it in: 2^31 − 1 is accepted wherever a ceiling is, 2^31 is not. A create holds its ceiling for
// every target language, so it is refused (402) when the balance cannot cover that; the quoted
// calls charge their quote, never the ceiling. No worker: the workflows these calls start are
// not this file's concern.

const MAX = 2_147_483_647;
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

/**
 * A project written as its workflow leaves it: 10 billable seconds dubbed into es_es, charged
 * (a hold of 60 s, 10 s captured, the rest released), completed.
 */
async function chargedProject(tenant: TestTenant, cps: number): Promise<string> {
  const id = randomUUID();
  const workspaceId = tenant.workspace.id;
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('projects')
      .values({
        id,
        workspace_id: workspaceId,
        name: 'Charged',
        external_id: null,
        source_type: 'upload',
        source_url: null,
        youtube_video_id: null,
        source_file_name: 'a.mp4',
        source_size_bytes: 10,
        source_duration_seconds: 9.5,
        source_has_video: true,
        source_locale: 'en_us',
        target_locales: ['es_es'],
        title: null,
        description: null,
        status: 'completed',
        phase: 'completed',
        failure_code: null,
        failure_message: null,
        failure_detail: null,
        max_billable_seconds: 60,
        credits_per_second: cps,
        billable_seconds: 10,
        charged_seconds: 10,
        usage_state: 'charged',
        hold_reference: `${id}:hold`,
        transcript_review_requested_at: null,
        transcript_review_verified_at: null,
        validated_at: new Date(),
        completed_at: new Date(),
      })
      .execute();
    await holdCredits(trx, { workspaceId, reference: `${id}:hold`, amount: 60 * cps, projectId: id });
    await captureFromHold(trx, { workspaceId, holdReference: `${id}:hold`, reference: `${id}:capture`, amount: 10 * cps, projectId: id });
    await releaseHold(trx, { workspaceId, holdReference: `${id}:hold`, reference: `${id}:release`, projectId: id });
    await trx
      .insertInto('project_languages')
      .values({
        project_id: id,
        locale: 'es_es',
        status: 'completed',
        phase_message: null,
        failure_code: null,
        failure_message: null,
        failure_detail: null,
        title: null,
        description: null,
        drift_seconds: null,
        completed_at: new Date(),
        charged_seconds: 10,
        attempt_charged_seconds: 10,
      })
      .execute();
  });
  return id;
}

const postReview = (tenant: TestTenant, projectId: string, body: Record<string, unknown>) =>
  request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/transcript-review`, { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body });

describe('issue 26 item 13: spend ceilings up to 2^31 − 1', () => {
  // ae776e7 answered 400 to any ceiling above 86,400 on create.
  it('issue 26 item 13: a create with max_billable_seconds 2^31 − 1 is created when the balance covers its hold, 402 with no rows when not', async () => {
    const covered = await createTenant(api.db, { credits: MAX, creditsPerSecond: 1 });
    const created = await createProject(api, covered, projectBody({ max_billable_seconds: MAX }));
    expect(created.status).toBe(201);
    expect(created.body.data.usage).toMatchObject({ max_billable_seconds: MAX, state: 'pending_validation' });
    const row = await api.db.selectFrom('projects').select(['max_billable_seconds', 'hold_reference']).where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
    expect(row.max_billable_seconds).toBe(MAX);
    expect(await projectLedger(api, created.body.data.id)).toEqual([`hold:${MAX}:hold`]);
    const hold = await api.db.selectFrom('credit_holds').select(['amount', 'remaining']).where('reference', '=', row.hold_reference).executeTakeFirstOrThrow();
    expect(hold).toEqual({ amount: MAX, remaining: MAX });
    expect(await getBalance(api.db, covered.workspace.id)).toEqual({ granted: MAX, captured: 0, reserved: MAX });

    // One credit short, and holds far past 2^31 (and past 2^53): 402 naming the exact need, nothing written.
    const refusals: [TestTenant, number, string[], bigint][] = [
      [await createTenant(api.db, { credits: MAX - 1, creditsPerSecond: 1 }), MAX, ['es_es'], BigInt(MAX)],
      [await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: 10 }), MAX, ['es_es', 'ca_es'], BigInt(MAX) * 20n],
      // About 8.6 × 10^18 credits: past 2^53 (exact numbers), still a bigint.
      [await createTenant(api.db, { credits: 1_000_000, creditsPerSecond: 2_000_000_000 }), MAX, ['es_es', 'ca_es'], BigInt(MAX) * 2n * 2_000_000_000n],
    ];
    for (const [tenant, ceiling, locales, needed] of refusals) {
      const before = await workspaceRowCounts(api, tenant.workspace.id);
      const res = await createProject(api, tenant, projectBody({ max_billable_seconds: ceiling, target_locales: locales }));
      expect([res.status, res.body.error.message]).toEqual([402, expect.stringContaining('credits')]);
      expect(res.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
      expect(res.body.error.message).toContain(`needs ${needed} credits held`);
      expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
      expect(before).toMatchObject({ projects: 0, holds: 0, idempotency: 0 });
    }
  });

  // The new bound (ae776e7 refused these too, with a lower one).
  it('issue 26 item 13: the bound: 2^31 on create, language addition and transcript review is a 400 naming max_billable_seconds, writing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
    const projectId = await chargedProject(tenant, 10);
    const before = await additionRows(api, tenant.workspace.id);
    const calls = [
      () => createProject(api, tenant, projectBody({ max_billable_seconds: MAX + 1 })),
      () => postLanguages(api, tenant, projectId, { target_locales: ['ca_es'], max_billable_seconds: MAX + 1, preview_only: false }, randomUUID()),
      () => postReview(tenant, projectId, { max_billable_seconds: MAX + 1, preview_only: false }),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param: 'max_billable_seconds' });
    }
    expect(await additionRows(api, tenant.workspace.id)).toEqual(before);
  });

  // ae776e7 answered 400 above 1,728,000 on a language addition.
  it('issue 26 item 13: a language addition with max_billable_seconds 2^31 − 1 is accepted and charges its quote, not the ceiling', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: 10 });
    const projectId = await chargedProject(tenant, 10);
    const preview = await postLanguages(api, tenant, projectId, { target_locales: ['ca_es'], max_billable_seconds: MAX });
    expect(preview.status).toBe(200);
    expect(preview.body.data.addition).toMatchObject({ preview_only: true, new_locales: ['ca_es'], billable_seconds: 10, credits: 100, max_billable_seconds: MAX, within_limit: true });

    const added = await postLanguages(api, tenant, projectId, { target_locales: ['ca_es'], max_billable_seconds: MAX, preview_only: false }, randomUUID());
    expect(added.status).toBe(200);
    expect(added.body.data.addition).toMatchObject({ preview_only: false, new_locales: ['ca_es'], billable_seconds: 10, credits: 100, max_billable_seconds: MAX, within_limit: true });
    const rows = await additionRows(api, tenant.workspace.id);
    expect(rows.additions).toEqual([expect.objectContaining({ project_id: projectId, billable_seconds: 10, credits: 100 })]);
    expect(rows.languages.map((l) => l.locale)).toEqual(['ca_es', 'es_es']);
    // The ledger: the project's own 100, then the addition's 100 (never the ceiling).
    const charges = rows.ledger.filter((e) => e.kind !== 'grant').map((e) => `${e.kind}:${e.amount}`);
    expect(charges).toEqual(['hold:600', 'capture:100', 'release:500', expect.stringMatching(/^(charge|capture):100$/)]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 1000, captured: 200, reserved: 0 });
  });

  // ae776e7 answered 400 above 86,400 on a transcript review.
  it('issue 26 item 13: a transcript review with max_billable_seconds 2^31 − 1 is accepted and charges its quote, not the ceiling', async () => {
    const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: 10 });
    const projectId = await chargedProject(tenant, 10);
    const preview = await postReview(tenant, projectId, { max_billable_seconds: MAX });
    expect(preview.status).toBe(200);
    expect(preview.body.data.review).toMatchObject({ preview_only: true, billable_seconds: 60, credits: 600, max_billable_seconds: MAX, within_limit: true, charged_now_seconds: 0 });

    const requested = await postReview(tenant, projectId, { max_billable_seconds: MAX, preview_only: false });
    expect(requested.status).toBe(200);
    expect(requested.body.data.review).toMatchObject({ preview_only: false, billable_seconds: 60, credits: 600, max_billable_seconds: MAX, within_limit: true, charged_now_seconds: 60 });
    const review = await api.db.selectFrom('transcript_reviews').select(['billable_seconds', 'credits']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
    expect(review).toEqual({ billable_seconds: 60, credits: 600 });
    expect(await projectLedger(api, projectId)).toEqual(['hold:600:hold', 'capture:100:capture', 'release:500:release', 'capture:600:review:charge']);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 1000, captured: 700, reserved: 0 });
  });
});
