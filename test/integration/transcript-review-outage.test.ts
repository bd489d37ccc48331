import { randomUUID } from 'node:crypto';
import { transcriptReviewWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant } from '../helpers/fixtures';
import { startOutageStack, type OutageStack } from '../helpers/outage-stack';
import type { CuttableProxy } from '../helpers/tcp-proxy';
import { request, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// A review submission commits its charge, then starts the review workflow. The API reaches the
// real dev server through a proxy the test cuts between the two: the 503 keeps the idempotency
// recovery point, and the retried request only starts the workflow (charging nothing again).

const CPS = 10;
let proxy: CuttableProxy;
let api: TestApi;
let stack: OutageStack;

beforeAll(async () => {
  stack = await startOutageStack({ worker: false });
  ({ proxy, api } = stack);
}, 60_000);
afterAll(async () => {
  await stack.close();
});

it('answers 503 when Temporal is unreachable after the charge; the retry with the same key starts the workflow and charges nothing more', async () => {
  const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = randomUUID();
  await api.db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name: 'outage',
      source_type: 'upload',
      source_file_name: 'outage.mp4',
      source_size_bytes: 1_000_000,
      source_locale: 'en_gb',
      target_locales: ['es_es'],
      source_duration_seconds: 90.2,
      status: 'completed',
      phase: 'completed',
      max_billable_seconds: 600,
      credits_per_second: CPS,
      billable_seconds: 91,
      usage_state: 'charged',
      hold_reference: `${id}:hold`,
    })
    .execute();
  const key = randomUUID();
  const submit = () =>
    request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/transcript-review`, {
      headers: { ...bearer(tenant.key), 'idempotency-key': key },
      body: { max_billable_seconds: 120, preview_only: false },
    });
  const ledger = () => api.db.selectFrom('credit_ledger').select(['reference', 'kind', 'amount']).where('project_id', '=', id).execute();
  const handle = api.temporal.workflow.getHandle(transcriptReviewWorkflowId(id));

  await proxy.cut();
  const refused = await submit();
  expect(refused.status).toBe(503);
  expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  // The charge and the review committed before the outage; the key remembers how far it got.
  expect(await ledger()).toEqual([{ reference: `${id}:review:charge`, kind: 'capture', amount: 1200 }]);
  expect(await api.db.selectFrom('transcript_reviews').select('status').where('project_id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'requested' });
  expect(await api.db.selectFrom('idempotency_keys').select(['recovery_point', 'response_status', 'locked_at']).where('key', '=', key).executeTakeFirstOrThrow()).toEqual({
    recovery_point: 'review_requested',
    response_status: null,
    locked_at: null,
  });

  await proxy.restore();
  await expect(handle.describe()).rejects.toThrow(); // never started
  const accepted = await waitFor(
    'the retried submission',
    async () => {
      const res = await submit();
      return res.status === 200 ? res : undefined;
    },
    30_000,
    1000,
  );
  expect(accepted.body.data.review).toEqual({
    preview_only: false,
    already_requested: false,
    billable_seconds: 120,
    credits: 1200,
    max_billable_seconds: 120,
    within_limit: true,
    charged_now_seconds: 120,
  });
  expect(accepted.body.data.project.transcript_review).toMatchObject({ requested: true, status: 'requested' });
  expect((await handle.describe()).status.name).toBe('RUNNING');
  expect(await ledger()).toEqual([{ reference: `${id}:review:charge`, kind: 'capture', amount: 1200 }]);
  await handle.terminate('test done');
}, 90_000);
