import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { getBalance } from '../../src/db/credits';
import { creditGrantWorkflowId } from '../../src/shared/workflow-ids';
import { createTenant } from '../helpers/fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// Proves the real chain: client → Temporal dev server → worker → activity → PostgreSQL.

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.db);
});
afterAll(async () => {
  await worker.stop();
  await api.close();
});

describe('credit grant workflow on the Temporal dev server', () => {
  it('runs, writes the ledger through its activity, and refuses a second start of the same grant', async () => {
    const { workspace } = await createTenant(api.db);
    const reference = `grant-${randomUUID()}`;
    const input = { workspaceId: workspace.id, credits: 2500, reference, description: 'test top-up' };

    const handle = await api.temporal.workflow.start('creditGrantWorkflow', {
      taskQueue: worker.taskQueue,
      workflowId: creditGrantWorkflowId(reference),
      args: [input],
    });
    expect(await handle.result()).toEqual({ applied: true });

    const history = await handle.fetchHistory();
    const activityNames = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(activityNames).toEqual(['applyCreditGrant']);

    expect(await getBalance(api.db, workspace.id)).toEqual({ granted: 2500, captured: 0, reserved: 0 });
    const rows = await api.db.selectFrom('credit_ledger').selectAll().where('reference', '=', reference).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'grant', amount: 2500, description: 'test top-up' });

    await expect(
      api.temporal.workflow.start('creditGrantWorkflow', {
        taskQueue: worker.taskQueue,
        workflowId: creditGrantWorkflowId(reference),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [input],
      }),
    ).rejects.toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  });

  it('applies a grant once even when a second workflow run repeats it', async () => {
    const { workspace } = await createTenant(api.db);
    const reference = `grant-${randomUUID()}`;
    const input = { workspaceId: workspace.id, credits: 700, reference };
    const first = await api.temporal.workflow.execute('creditGrantWorkflow', { taskQueue: worker.taskQueue, workflowId: `${creditGrantWorkflowId(reference)}/a`, args: [input] });
    const second = await api.temporal.workflow.execute('creditGrantWorkflow', { taskQueue: worker.taskQueue, workflowId: `${creditGrantWorkflowId(reference)}/b`, args: [input] });
    expect(first).toEqual({ applied: true });
    expect(second).toEqual({ applied: false });
    expect(await getBalance(api.db, workspace.id)).toEqual({ granted: 700, captured: 0, reserved: 0 });
  });
});

describe('GET /readyz', () => {
  it('is ready when Postgres and Temporal answer', async () => {
    const res = await fetch(`${api.baseUrl}/readyz`);
    expect(res.status).toBe(200);
    // This file's worker polls a queue of its own; the API's fleet has only its last known worker
    // (test/integration/ready-to-dub.test.ts covers live ones).
    expect(await res.json()).toEqual({ data: { status: 'ready', checks: { postgres: true, temporal: true }, workers: { live: 0, locales: 0 } } });
  });

  it('is not ready when Temporal does not answer', async () => {
    // A TCP server that accepts and never speaks: the probe must give up on its own deadline.
    const sockets = new Set<net.Socket>();
    const blackHole = net.createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as net.AddressInfo;
    const broken = await startTestApi({ TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
    try {
      const res = await fetch(`${broken.baseUrl}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ data: { status: 'not_ready', checks: { postgres: true, temporal: false }, workers: { live: 0, locales: 0 } } });
      const live = await fetch(`${broken.baseUrl}/healthz`);
      expect(live.status).toBe(200);
    } finally {
      await broken.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});
