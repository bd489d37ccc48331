import { revokeApiKey } from '../../src/db/api-keys';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 1000 });
});
afterAll(() => api.close());

const expectError = (res: { status: number; body: any; headers: Headers }, status: number, type: string, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ type, code });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
};

describe('authentication', () => {
  it('accepts the key as a Bearer token and as x-api-key', async () => {
    const viaBearer = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) });
    const viaHeader = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { 'x-api-key': tenant.key } });
    expect(viaBearer.status).toBe(200);
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.data.credits.total).toBe(1000);
  });

  it('accepts both headers when they carry the same key', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { ...bearer(tenant.key), 'x-api-key': tenant.key } });
    expect(res.status).toBe(200);
  });

  it('rejects a missing key with 401', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/usage');
    expectError(res, 401, 'authentication_error', 'unauthenticated');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('rejects a malformed, an unknown and a wrong-secret key with the same 401', async () => {
    const wrongSecret = tenant.key.replace(/_[A-Za-z0-9]+$/, `_${'x'.repeat(40)}`);
    for (const key of ['nonsense', 'dk_aaaaaaaaaaaaaaaa_' + 'b'.repeat(40), wrongSecret]) {
      const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { 'x-api-key': key } });
      expectError(res, 401, 'authentication_error', 'unauthenticated');
      expect(res.body.error.message).toBe('Invalid API key provided.');
    }
  });

  it('a key verified once still refuses a secret one character off, of the same length', async () => {
    // The first request proves the secret and the process remembers it for the cached row; the
    // next ones are compared against that, never against the key id alone.
    expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) })).status).toBe(200);
    const last = tenant.key.at(-1)!;
    const offByOne = tenant.key.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    for (const key of [offByOne, tenant.key + 'a']) {
      const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(key) });
      expectError(res, 401, 'authentication_error', 'unauthenticated');
    }
    expect((await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) })).status).toBe(200);
  });

  it('rejects two different keys in the two headers', async () => {
    const other = await createTenant(api.db);
    const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { ...bearer(tenant.key), 'x-api-key': other.key } });
    expectError(res, 401, 'authentication_error', 'unauthenticated');
  });

  it('rejects a non-Bearer Authorization scheme', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: { authorization: `Basic ${tenant.key}` } });
    expectError(res, 401, 'authentication_error', 'unauthenticated');
  });

  it('rejects a revoked key and records the revocation', async () => {
    const doomed = await createTenant(api.db);
    expect(await revokeApiKey(api.db, doomed.keyId)).toBe(true);
    const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(doomed.key) });
    expectError(res, 401, 'authentication_error', 'unauthenticated');
    expect(res.body.error.message).toContain('revoked');
    const row = await api.db.selectFrom('api_keys').select('revoked_at').where('id', '=', doomed.keyId).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeInstanceOf(Date);
  });

  it('answers 403 for a key without the permission', async () => {
    const limited = await createTenant(api.db, { permissions: ['dubbing:read'] });
    const res = await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(limited.key) });
    expectError(res, 403, 'permission_error', 'permission_denied');
    expect(res.body.error.message).toContain('usage:read');
  });

  it('records when a key was last used', async () => {
    const fresh = await createTenant(api.db);
    await request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(fresh.key) });
    const row = await api.db.selectFrom('api_keys').select('last_used_at').where('id', '=', fresh.keyId).executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });
});

describe('error bodies', () => {
  it('answers an unknown route with 404 route_not_found and a request id', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/nothing-here');
    expectError(res, 404, 'not_found_error', 'route_not_found');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('keeps a caller-supplied request id', async () => {
    const res = await request(api.baseUrl, 'GET', '/v1/dubbing/locales', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });

  it('answers a wrong method with 405', async () => {
    const res = await request(api.baseUrl, 'DELETE', '/v1/usage', { headers: bearer(tenant.key) });
    expectError(res, 405, 'invalid_request_error', 'method_not_allowed');
  });

  it('rejects unknown and repeated query parameters, naming them', async () => {
    const unknown = await request(api.baseUrl, 'GET', '/v1/usage?verbose=1', { headers: bearer(tenant.key) });
    expectError(unknown, 400, 'invalid_request_error', 'unknown_parameter');
    expect(unknown.body.error.param).toBe('verbose');
  });
});
