import { randomUUID } from 'node:crypto';
import { consoleRun } from '../helpers/console-run';
import { getBalance } from '../../src/db/credits';
import { createTenant } from '../helpers/fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// credits:grant through the real chain: console → Temporal dev server → worker → PostgreSQL.

let api: TestApi;
let worker: TestWorker;
beforeAll(async () => {
  api = await startTestApi();
  worker = await startTestWorker(api.db);
  process.env.TEMPORAL_TASK_QUEUE = worker.taskQueue; // what the console's config reads
});
afterAll(async () => {
  delete process.env.TEMPORAL_TASK_QUEUE;
  await worker.stop();
  await api.close();
});

const grants = async (workspaceId: string) => api.db.selectFrom('credit_ledger').select(['reference', 'amount']).where('workspace_id', '=', workspaceId).where('kind', '=', 'grant').execute();

describe('console: credits:grant', () => {
  it('item 18: grants the same reference once to each of two workspaces', async () => {
    const a = (await createTenant(api.db)).workspace;
    const b = (await createTenant(api.db)).workspace;
    const reference = `invoice-${randomUUID().slice(0, 8)}`;

    const first = await consoleRun('credits:grant', '--workspace', a.id, '--credits', '500', '--reference', reference);
    const second = await consoleRun('credits:grant', '--workspace', b.id, '--credits', '500', '--reference', reference);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(await getBalance(api.db, a.id)).toEqual({ granted: 500, captured: 0, reserved: 0 });
    expect(await getBalance(api.db, b.id)).toEqual({ granted: 500, captured: 0, reserved: 0 });
    expect(first.out).toBe(`granted 500 credits to workspace ${a.id} (reference ${reference})`);
    expect(second.out).toBe(`granted 500 credits to workspace ${b.id} (reference ${reference})`);
    expect(await grants(a.id)).toEqual([{ reference: `grant:${a.id}:${reference}`, amount: 500 }]);
    expect(await grants(b.id)).toEqual([{ reference: `grant:${b.id}:${reference}`, amount: 500 }]);
  });

  it('item 18: the exact grant again changes nothing (exit 0); another amount under the same reference is refused, naming the earlier amount', async () => {
    const { workspace } = await createTenant(api.db);
    const reference = `invoice-${randomUUID().slice(0, 8)}`;
    expect((await consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '500', '--reference', reference)).code).toBe(0);

    // The workflow id is reused after the first run closed: the new run must report on itself.
    const again = await consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '500', '--reference', reference);
    expect(again).toMatchObject({ code: 0, stdout: `reference ${reference} was already applied; nothing changed`, stderr: '' });

    const different = await consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '700', '--reference', reference, '--description', 'top-up');
    expect(different.code).toBe(1);
    expect(different.out).toContain(`reference ${reference} was already used in workspace ${workspace.id} for 500 credits`);
    expect(different.out).toContain('refusing to grant 700');
    expect(different.out).not.toContain('nothing changed');

    // And the exact grant is still recognised after the refusal.
    expect((await consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '500', '--reference', reference)).code).toBe(0);

    expect(await getBalance(api.db, workspace.id)).toEqual({ granted: 500, captured: 0, reserved: 0 });
    expect(await grants(workspace.id)).toEqual([{ reference: `grant:${workspace.id}:${reference}`, amount: 500 }]);
  });

  it('item 18: two consoles running the same reference at once each report their own outcome', async () => {
    const { workspace } = await createTenant(api.db);
    const same = `invoice-${randomUUID().slice(0, 8)}`;
    const twins = await Promise.all([1, 2].map(() => consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '300', '--reference', same)));
    expect(twins.map((r) => r.code)).toEqual([0, 0]);
    expect(twins.map((r) => r.out).sort()).toEqual([`granted 300 credits to workspace ${workspace.id} (reference ${same})`, `reference ${same} was already applied; nothing changed`]);

    const clash = `invoice-${randomUUID().slice(0, 8)}`;
    const rivals = await Promise.all(['100', '200'].map((n) => consoleRun('credits:grant', '--workspace', workspace.id, '--credits', n, '--reference', clash)));
    expect(rivals.map((r) => r.code).sort()).toEqual([0, 1]);
    const won = rivals.find((r) => r.code === 0)!.out;
    const amount = Number(/granted (\d+) credits/.exec(won)![1]);
    expect(rivals.find((r) => r.code === 1)!.out).toContain(`for ${amount} credits`);
    expect(await getBalance(api.db, workspace.id)).toEqual({ granted: 300 + amount, captured: 0, reserved: 0 });
  });

  it('item 18: a grant to a workspace that does not exist fails at once, by name, writing nothing', async () => {
    const missing = randomUUID();
    const run = await consoleRun('credits:grant', '--workspace', missing, '--credits', '10', '--reference', 'invoice-1');
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `error: no workspace ${missing}` });
    expect(await api.db.selectFrom('credit_ledger').select('id').where('workspace_id', '=', missing).execute()).toEqual([]);
  });

  it('without --reference each grant gets its own reference (unchanged behaviour)', async () => {
    const { workspace } = await createTenant(api.db);
    for (let i = 0; i < 2; i++) expect((await consoleRun('credits:grant', '--workspace', workspace.id, '--credits', '50')).code).toBe(0);
    expect(await getBalance(api.db, workspace.id)).toEqual({ granted: 100, captured: 0, reserved: 0 });
  });
});
