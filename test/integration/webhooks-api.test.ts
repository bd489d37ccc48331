import { randomUUID } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createWebhookResponseSchema, deleteWebhookResponseSchema, getWebhookResponseSchema, listDeliveriesResponseSchema, listWebhooksResponseSchema } from '../../src/api/webhooks/webhooks.schema';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared/webhook-contracts';
import { openSecret } from '../../src/webhooks/secret-box';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The endpoints API on the real app and database: what is written, what is shown, what is refused.

let api: TestApi;
/** The same app with WEBHOOK_ALLOW_PRIVATE_TARGETS off, as in production. */
let strict: TestApi;

beforeAll(async () => {
  api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  strict = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
}, 60_000);
afterAll(async () => {
  await api.close();
  await strict.close();
});

const create = (target: TestApi, tenant: TestTenant, body: unknown, key: string | null = randomUUID()) =>
  request(target.baseUrl, 'POST', '/v1/webhooks', { headers: { ...bearer(tenant.key), ...(key ? { 'idempotency-key': key } : {}) }, body });
// Responses are checked against the schemas the OpenAPI operations publish.
const ajv = addFormats(new Ajv({ strict: true, allErrors: true }));
const matches = (schema: object, body: unknown) => {
  const validate = ajv.compile(schema);
  if (!validate(body)) throw new Error(`response does not match its schema: ${ajv.errorsText(validate.errors)}`);
};
const endpointRows = (tenant: TestTenant) => api.db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', tenant.workspace.id).orderBy('seq').execute();

describe('POST /v1/webhooks', () => {
  it('registers an endpoint, shows its secret once, and lists, reads and deletes it', async () => {
    const tenant = await createTenant(api.db);
    const created = await create(api, tenant, { url: 'http://127.0.0.1:9/hook', description: 'ci receiver' });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', url: 'http://127.0.0.1:9/hook', description: 'ci receiver', enabled_events: [...WEBHOOK_EVENT_TYPES] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    matches(createWebhookResponseSchema, created.body);
    expect(endpoint.secret_hint).toBe(`whsec_…${endpoint.secret.slice(-4)}`);

    const rows = await endpointRows(tenant);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: endpoint.id, url: 'http://127.0.0.1:9/hook', enabled_events: [...WEBHOOK_EVENT_TYPES], deleted_at: null });
    // Sealed at rest (docs/webhooks.md, "Secrets").
    expect(openSecret(api.config.webhooks.secretKey, endpoint.id, rows[0]!.secret)).toBe(endpoint.secret);

    const read = await request(api.baseUrl, 'GET', `/v1/webhooks/${endpoint.id}`, { headers: bearer(tenant.key) });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...endpoint, secret: undefined });
    matches(getWebhookResponseSchema, read.body);
    expect(JSON.stringify(read.body)).not.toContain(endpoint.secret);
    const list = await request(api.baseUrl, 'GET', '/v1/webhooks', { headers: bearer(tenant.key) });
    expect(list.body).toEqual({ data: [read.body.data], page: { has_more: false, next_cursor: null } });
    matches(listWebhooksResponseSchema, list.body);
    const log = await request(api.baseUrl, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`, { headers: bearer(tenant.key) });
    expect(log.body).toEqual({ data: [], page: { has_more: false, next_cursor: null } });
    matches(listDeliveriesResponseSchema, log.body);

    const deleted = await request(api.baseUrl, 'DELETE', `/v1/webhooks/${endpoint.id}`, { headers: bearer(tenant.key) });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    matches(deleteWebhookResponseSchema, deleted.body);
    expect((await endpointRows(tenant))[0]).toMatchObject({ deleted_at: expect.any(Date), secret: null });
    expect((await request(api.baseUrl, 'GET', `/v1/webhooks/${endpoint.id}`, { headers: bearer(tenant.key) })).status).toBe(404);
    expect((await request(api.baseUrl, 'DELETE', `/v1/webhooks/${endpoint.id}`, { headers: bearer(tenant.key) })).status).toBe(404);
    expect((await request(api.baseUrl, 'GET', '/v1/webhooks', { headers: bearer(tenant.key) })).body.data).toEqual([]);
  });

  it('keeps the chosen events, replays a repeated Idempotency-Key, and pages newest first', async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const body = { url: 'http://127.0.0.1:9/a', enabled_events: ['project.completed', 'project.failed'] };
    const first = await create(api, tenant, body, key);
    const again = await create(api, tenant, body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await endpointRows(tenant)).map((r) => r.enabled_events)).toEqual([['project.completed', 'project.failed']]);

    const second = (await create(api, tenant, { url: 'http://127.0.0.1:9/b' })).body.data;
    const third = (await create(api, tenant, { url: 'http://127.0.0.1:9/c' })).body.data;
    const page1 = await request(api.baseUrl, 'GET', '/v1/webhooks?limit=2', { headers: bearer(tenant.key) });
    expect(page1.body.data.map((e: any) => e.id)).toEqual([third.id, second.id]);
    expect(page1.body.page.has_more).toBe(true);
    matches(listWebhooksResponseSchema, page1.body);
    // A secret in a list would break the schema (additionalProperties: false): the check can fail.
    expect(() => matches(listWebhooksResponseSchema, { ...page1.body, data: [{ ...page1.body.data[0], secret: 'whsec_x' }] })).toThrow(/must NOT have additional properties/);
    const page2 = await request(api.baseUrl, 'GET', `/v1/webhooks?limit=2&cursor=${encodeURIComponent(page1.body.page.next_cursor)}`, { headers: bearer(tenant.key) });
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: first.body.data.id })], page: { has_more: false, next_cursor: null } });
    const tampered = await request(api.baseUrl, 'GET', `/v1/webhooks?cursor=${page1.body.page.next_cursor}x`, { headers: bearer(tenant.key) });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
  });

  it.each([
    [{ url: 'ftp://127.0.0.1/hook' }, 'invalid_webhook_url', 'url'],
    [{ url: 'not a url' }, 'invalid_webhook_url', 'url'],
    [{ url: 'https://user:secret@127.0.0.1/hook' }, 'invalid_webhook_url', 'url'],
    [{ url: 'http://no-such-host.invalid/hook' }, 'webhook_target_unresolvable', 'url'],
    [{ url: 'http://127.0.0.1/hook', secret: 'whsec_mine' }, 'unknown_parameter', 'secret'],
    [{ description: 'no url' }, 'missing_parameter', 'url'],
    [{ url: 'http://127.0.0.1/hook', enabled_events: ['project.exploded'] }, 'invalid_parameter', 'enabled_events[0]'],
    [{ url: 'http://127.0.0.1/hook', enabled_events: [] }, 'invalid_parameter', 'enabled_events'],
  ])('refuses %j with %s naming %s, writing nothing', async (body, code, param) => {
    const tenant = await createTenant(api.db);
    const refused = await create(api, tenant, body);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(refused.body.error.request_id).toBe(refused.headers.get('x-request-id'));
    expect(await endpointRows(tenant)).toEqual([]);
    expect(await api.db.selectFrom('idempotency_keys').select('key').where('workspace_id', '=', tenant.workspace.id).execute()).toEqual([]);
  });

  it('needs an Idempotency-Key', async () => {
    const tenant = await createTenant(api.db);
    const refused = await create(api, tenant, { url: 'http://127.0.0.1:9/hook' }, null);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    expect(await endpointRows(tenant)).toEqual([]);
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook',
    'http://10.0.0.7/hook',
    'http://192.168.1.20/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.1.1/hook',
    'http://[::1]/hook',
    'http://[fd12::1]/hook',
    'http://0.0.0.0/hook',
  ])('refuses the internal target %s when private targets are not allowed', async (url) => {
    const tenant = await createTenant(strict.db);
    const refused = await create(strict, tenant, { url });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'webhook_target_forbidden', param: 'url' });
    expect(refused.body.error.message).toContain('public addresses only');
    expect(await endpointRows(tenant)).toEqual([]);
  });
});

describe('access', () => {
  it("needs dubbing:write everywhere, and hides other workspaces' endpoints", async () => {
    const owner = await createTenant(api.db);
    const endpoint = (await create(api, owner, { url: 'http://127.0.0.1:9/hook' })).body.data;
    const reader = await createTenant(api.db, { permissions: ['dubbing:read', 'usage:read'] });
    for (const [method, path] of [
      ['GET', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${endpoint.id}`],
      ['DELETE', `/v1/webhooks/${endpoint.id}`],
      ['GET', `/v1/webhooks/${endpoint.id}/deliveries`],
    ] as const) {
      const denied = await request(api.baseUrl, method, path, { headers: bearer(reader.key) });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ type: 'permission_error', code: 'permission_denied' });
    }
    const deniedCreate = await create(api, reader, { url: 'http://127.0.0.1:9/hook' });
    expect(deniedCreate.status).toBe(403);
    expect(await endpointRows(reader)).toEqual([]);

    const stranger = await createTenant(api.db);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${endpoint.id}`],
      ['DELETE', `/v1/webhooks/${endpoint.id}`],
      ['GET', `/v1/webhooks/${endpoint.id}/deliveries`],
      ['GET', '/v1/webhooks/not-a-uuid'],
    ] as const) {
      const hidden = await request(api.baseUrl, method, path, { headers: bearer(stranger.key) });
      expect(hidden.status).toBe(404);
      expect(hidden.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'webhook_id' });
    }
    expect((await request(api.baseUrl, 'GET', '/v1/webhooks', { headers: bearer(stranger.key) })).body.data).toEqual([]);
    expect((await endpointRows(owner))[0]!.deleted_at).toBeNull();
    expect((await request(api.baseUrl, 'GET', '/v1/webhooks', {})).status).toBe(401);
  });
});
