import { randomUUID } from 'node:crypto';
import { regenerationChargeReference } from '../../src/shared/ledger-references';
import { regenerationWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant } from '../helpers/fixtures';
import { startOutageStack, type OutageStack } from '../helpers/outage-stack';
import { completedProjectWithSegments, LOCALE, postRegenerate, regenerationRows, updateLine } from '../helpers/regenerations';
import { waitFor } from '../helpers/wait-for';

// A paid regeneration commits its charge, then starts its workflow. The API reaches the real dev
// server through a proxy the test cuts between the two: the 503 keeps the idempotency recovery
// point, and the retried request only starts the workflow (charging nothing again).

const CPS = 10;
let stack: OutageStack;

beforeAll(async () => {
  stack = await startOutageStack({ worker: false });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

it('answers 503 when Temporal is unreachable after the charge; the retry with the same key starts the workflow and charges nothing more', async () => {
  const { api, proxy } = stack;
  const tenant = await createTenant(api.db, { credits: 1000, creditsPerSecond: CPS });
  const project = await completedProjectWithSegments(api.db, tenant, {
    cues: [
      [0, 2.5, 'Hello.'],
      [2.5, 4.2, 'Welcome.'],
    ],
    creditsPerSecond: CPS,
  });
  await updateLine(api.db, project.lines[1]!, { status: 'stale' });
  const key = randomUUID();
  const submit = () => postRegenerate(api, tenant, project.id, { max_billable_seconds: 60, preview_only: false }, key);
  const handle = api.temporal.workflow.getHandle(regenerationWorkflowId(project.id, LOCALE, 1));

  await proxy.cut();
  const refused = await submit();
  expect(refused.status).toBe(503);
  expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
  // The charge and the row committed before the outage; the key remembers how far it got.
  const committed = await regenerationRows(api, tenant.workspace.id);
  expect(committed.regenerations).toHaveLength(1);
  const regeneration = committed.regenerations[0]!;
  expect(regeneration).toMatchObject({ status: 'running', segments: 1, billable_seconds: 2, credits: 20, idempotency_key: key });
  expect(committed.ledger.map((e) => [e.kind, e.amount, e.reference])).toEqual([
    ['grant', 1000, expect.any(String)],
    ['capture', 20, regenerationChargeReference(project.id, regeneration.id)],
  ]);
  expect(committed.idempotency.map((k) => [k.key, k.recovery_point, k.response_status, k.locked_at])).toEqual([[key, 'regeneration_charged', null, null]]);

  await proxy.restore();
  await expect(handle.describe()).rejects.toThrow(); // never started
  const accepted = await waitFor(
    'the retried regeneration',
    async () => {
      const res = await submit();
      return res.status === 200 ? res : undefined;
    },
    30_000,
    1000,
  );
  expect(accepted.body.data.regeneration).toEqual({ preview_only: false, segments: 1, billable_seconds: 2, credits: 20, max_billable_seconds: 60, within_limit: true, charged_now_seconds: 2 });
  expect(accepted.body.data.project.usage).toMatchObject({ charged_seconds: 5 + 2 });
  expect((await handle.describe()).status.name).toBe('RUNNING');
  const after = await regenerationRows(api, tenant.workspace.id);
  expect({ ledger: after.ledger, regenerations: after.regenerations, balance: after.balance }).toEqual({
    ledger: committed.ledger,
    regenerations: committed.regenerations,
    balance: committed.balance,
  });
  await handle.terminate('test done');
}, 90_000);
