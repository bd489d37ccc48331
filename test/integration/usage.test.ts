import { randomUUID } from 'node:crypto';
import { captureFromHold, holdCredits, refundCredits, releaseHold } from '../../src/db/credits';
import { bearer, createTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const usage = async (key: string) => {
  const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) });
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('GET /v1/usage', () => {
  it('reports credits and billable seconds from the ledger at every step', async () => {
    const tenant = await createTenant(api.db, { credits: 10_005, creditsPerSecond: 10 });
    const ws = tenant.workspace.id;
    const before = Date.now();
    expect(await usage(tenant.key)).toMatchObject({
      credits_per_second: 10,
      credits: { total: 10_005, reserved: 0, available: 10_005 },
      billable_seconds: { total: 1000, reserved: 0, available: 1000 },
    });

    const hold = `${randomUUID()}:hold`;
    await api.db.transaction().execute((trx) => holdCredits(trx, { workspaceId: ws, reference: hold, amount: 3000 }));
    expect(await usage(tenant.key)).toMatchObject({
      credits: { total: 10_005, reserved: 3000, available: 7005 },
      billable_seconds: { total: 1000, reserved: 300, available: 700 },
    });

    await api.db.transaction().execute((trx) => captureFromHold(trx, { workspaceId: ws, holdReference: hold, reference: `${hold}:capture`, amount: 1200 }));
    await api.db.transaction().execute((trx) => releaseHold(trx, { workspaceId: ws, holdReference: hold, reference: `${hold}:release` }));
    const settled = await usage(tenant.key);
    expect(settled).toMatchObject({
      credits: { total: 8805, reserved: 0, available: 8805 },
      billable_seconds: { total: 880, reserved: 0, available: 880 },
    });
    expect(settled.as_of).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(settled.as_of)).toBeGreaterThanOrEqual(before - 1000);

    await api.db.transaction().execute((trx) => refundCredits(trx, { workspaceId: ws, reference: `${hold}:refund`, amount: 600 }));
    expect((await usage(tenant.key)).credits).toEqual({ total: 9405, reserved: 0, available: 9405 });
  });

  it("shows only the caller's own workspace", async () => {
    const rich = await createTenant(api.db, { credits: 50_000 });
    const poor = await createTenant(api.db, { credits: 10 });
    expect((await usage(rich.key)).credits.total).toBe(50_000);
    expect((await usage(poor.key)).credits.total).toBe(10);
  });
});
