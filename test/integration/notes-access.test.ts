import { generateApiKey, hashSecret } from '../../src/auth/api-key-secret';
import { insertApiKey } from '../../src/db/api-keys';
import { bearer, createTenant } from '../helpers/fixtures';
import { insertMeeting } from '../helpers/meeting-fixtures';
import { request, startTestApi, type JsonResponse, type TestApi } from '../helpers/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const T0 = 1_790_000_000;

const expectDenied = (res: JsonResponse) => {
  expect(res.status).toBe(403);
  expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'permission_denied' });
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
};

/** Both endpoints, so no rule is enforced on the list only. */
async function callBoth(headers: Record<string, string>, meetingId: string): Promise<JsonResponse[]> {
  return [await request(api.baseUrl, 'GET', '/v1/notes/meetings', { headers }), await request(api.baseUrl, 'GET', `/v1/notes/meetings/${meetingId}`, { headers })];
}

describe('who may read meetings', () => {
  it("lets a personal key with notes:read read its own user's meetings, in both header forms", async () => {
    const tenant = await createTenant(api.db, { workspaceKind: 'team', keyKind: 'personal', permissions: ['notes:read'] });
    const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
    for (const headers of [bearer(tenant.key), { 'x-api-key': tenant.key }]) {
      const [listRes, getRes] = await callBoth(headers, id);
      expect(listRes!.status).toBe(200);
      expect(listRes!.body.data.map((m: any) => m.id)).toEqual([id]);
      expect(getRes!.status).toBe(200);
      expect(getRes!.body.data.id).toBe(id);
    }
  });

  it("lets a project key of a personal workspace with notes:read read the owner's meetings", async () => {
    const tenant = await createTenant(api.db, { workspaceKind: 'personal', keyKind: 'project', permissions: ['notes:read'] });
    expect(tenant.workspace.owner_user_id).toBe(tenant.user.id);
    const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
    const [listRes, getRes] = await callBoth(bearer(tenant.key), id);
    expect(listRes!.body.data.map((m: any) => m.id)).toEqual([id]);
    expect(getRes!.body.data.id).toBe(id);
  });

  it('refuses a project key of a team workspace, even one whose row holds notes:read', async () => {
    // issueApiKey refuses this combination, so write the row directly: the API must not rely on that.
    const team = await createTenant(api.db, { workspaceKind: 'team' });
    const { key, keyId, secret } = generateApiKey();
    await insertApiKey(api.db, {
      id: keyId,
      workspace_id: team.workspace.id,
      user_id: null,
      kind: 'project',
      name: 'forged',
      secret_sha256: hashSecret(secret),
      permissions: ['dubbing:read', 'notes:read', 'usage:read'],
    });
    const id = await insertMeeting(api.db, team.user.id, { startedAt: T0 });
    for (const res of await callBoth(bearer(key), id)) {
      expectDenied(res);
      expect(res.body.error.message).toContain('personal');
    }
    // The same key works where it has the right, so the 403 is about meetings only.
    expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) })).status).toBe(200);
    // An ordinary team project key (every permission it can hold) is refused too.
    for (const res of await callBoth(bearer(team.key), id)) expectDenied(res);
  });

  it('refuses personal and personal-workspace keys that lack notes:read', async () => {
    const personal = await createTenant(api.db, { keyKind: 'personal', permissions: ['dubbing:read', 'usage:read'] });
    const workspaceKey = await createTenant(api.db, { workspaceKind: 'personal', permissions: ['dubbing:read', 'dubbing:write', 'usage:read'] });
    for (const tenant of [personal, workspaceKey]) {
      const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
      for (const res of await callBoth(bearer(tenant.key), id)) {
        expectDenied(res);
        expect(res.body.error.message).toContain('notes:read');
      }
      const key = await api.db.selectFrom('api_keys').select('permissions').where('id', '=', tenant.keyId).executeTakeFirstOrThrow();
      expect(key.permissions).not.toContain('notes:read');
    }
  });

  it('answers a missing or invalid key with 401', async () => {
    const tenant = await createTenant(api.db, { workspaceKind: 'personal' });
    const id = await insertMeeting(api.db, tenant.user.id, { startedAt: T0 });
    for (const headers of [{}, bearer('dk_aaaaaaaaaaaaaaaa_' + 'b'.repeat(40))]) {
      for (const res of await callBoth(headers, id)) {
        expect(res.status).toBe(401);
        expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
      }
    }
  });

  it('keeps a personal key to its own user even inside a shared team workspace', async () => {
    const alice = await createTenant(api.db, { workspaceKind: 'team', keyKind: 'personal', permissions: ['notes:read'] });
    const bob = await createTenant(api.db, { workspaceKind: 'team', keyKind: 'personal', permissions: ['notes:read'] });
    // Bob's key moved into Alice's workspace: it still acts for Bob only.
    await api.db.updateTable('api_keys').set({ workspace_id: alice.workspace.id }).where('id', '=', bob.keyId).execute();
    const alicesMeeting = await insertMeeting(api.db, alice.user.id, { startedAt: T0 });
    const bobsMeeting = await insertMeeting(api.db, bob.user.id, { startedAt: T0 });
    const [listRes, getRes] = await callBoth(bearer(bob.key), alicesMeeting);
    expect(listRes!.body.data.map((m: any) => m.id)).toEqual([bobsMeeting]);
    expect(getRes!.status).toBe(404);
  });
});
