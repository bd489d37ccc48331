import { randomUUID } from 'node:crypto';
import type { Permission } from '../../src/shared/permissions';
import { bearer, createTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The workspace balance is what usage:read guards: a 402 must not tell it to a key without it.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function refusedCreate(permissions: Permission[]) {
  // 599 credits; the project needs 60 s × 1 locale × 10 credits/s = 600.
  const tenant = await createTenant(api.db, { credits: 599, creditsPerSecond: 10, permissions });
  const before = await workspaceRowCounts(api, tenant.workspace.id);
  const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body: projectBody() });
  expect(res.status).toBe(402);
  expect(res.body.error).toMatchObject({ type: 'payment_required_error', code: 'insufficient_credits' });
  expect(res.body.error.message).toContain('600');
  expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  return res.body.error.message as string;
}

describe('402 insufficient_credits message', () => {
  it('item 12: does not reveal the available balance to a key without usage:read', async () => {
    const message = await refusedCreate(['dubbing:read', 'dubbing:write']);
    expect(message).not.toContain('599');
    expect(message).not.toMatch(/available/i);
  });

  it('item 12: tells a key with usage:read how much is available', async () => {
    expect(await refusedCreate(['dubbing:write', 'usage:read'])).toContain('599 are available');
  });
});
