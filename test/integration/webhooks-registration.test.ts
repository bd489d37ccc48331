import { randomUUID } from 'node:crypto';
import { up as migrateWebhookSecrets } from '../../db/migrations/2026_11_28_0022_webhook_secrets';
import { openSecret } from '../../src/webhooks/secret-box';
import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// What registering a webhook endpoint may do (docs/webhooks.md): how many a workspace may have,
// what is checked before any DNS, where the signing secret is kept, and that internal targets are
// refused unless allowed explicitly.

let api: TestApi;
/** As a deployment that leaves WEBHOOK_ALLOW_PRIVATE_TARGETS unset, in development mode (compose's default). */
let defaults: TestApi;

beforeAll(async () => {
  api = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE: '3' });
  defaults = await startTestApi({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: '' });
}, 60_000);
afterAll(async () => {
  await api.close();
  await defaults.close();
});

const create = (target: TestApi, tenant: TestTenant, body: unknown, key: string = randomUUID()) =>
  request(target.baseUrl, 'POST', '/v1/webhooks', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
const endpointRows = (target: TestApi, tenant: TestTenant) => target.db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', tenant.workspace.id).orderBy('seq').execute();
const keyRows = (target: TestApi, tenant: TestTenant) => target.db.selectFrom('idempotency_keys').selectAll().where('workspace_id', '=', tenant.workspace.id).execute();

describe('issue 26 item 6: live endpoints per workspace are capped', () => {
  it('refuses one more than WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE with a 409 that writes nothing; a deleted one frees its place', async () => {
    const tenant = await createTenant(api.db);
    const made: string[] = [];
    for (const path of ['a', 'b', 'c']) {
      const created = await create(api, tenant, { url: `http://127.0.0.1:9/${path}` });
      expect(created.status).toBe(201);
      made.push(created.body.data.id);
    }
    const key = randomUUID();
    const refused = await create(api, tenant, { url: 'http://127.0.0.1:9/d' }, key);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict_error', code: 'webhook_endpoint_limit_reached' });
    expect(refused.body.error.message).toContain('limit of 3 live webhook endpoints');
    expect((await endpointRows(api, tenant)).map((row) => row.id)).toEqual(made);
    // The key is forgotten, so the same request can be retried once a place is free.
    expect((await keyRows(api, tenant)).map((row) => row.key)).not.toContain(key);

    expect((await request(api.baseUrl, 'DELETE', `/v1/webhooks/${made[0]}`, { headers: bearer(tenant.key) })).status).toBe(200);
    const retried = await create(api, tenant, { url: 'http://127.0.0.1:9/d' }, key);
    expect(retried.status).toBe(201);
    expect((await endpointRows(api, tenant)).filter((row) => row.deleted_at === null)).toHaveLength(3);
    // Other workspaces are not affected.
    expect((await create(api, await createTenant(api.db), { url: 'http://127.0.0.1:9/e' })).status).toBe(201);
  });

  it('lets exactly one of several concurrent creates take the last place', async () => {
    const tenant = await createTenant(api.db);
    for (const path of ['a', 'b']) expect((await create(api, tenant, { url: `http://127.0.0.1:9/${path}` })).status).toBe(201);
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => create(api, tenant, { url: `http://127.0.0.1:9/race-${i}` })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(racing.filter((r) => r.status === 409).every((r) => r.body.error.code === 'webhook_endpoint_limit_reached')).toBe(true);
    expect(await endpointRows(api, tenant)).toHaveLength(3);
  });

  it('applies to the console too', async () => {
    const tenant = await createTenant(api.db);
    process.env.WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE = '1';
    try {
      expect((await consoleRun('webhooks:add', '--workspace', tenant.workspace.id, '--url', 'http://127.0.0.1:9/a')).code).toBe(0);
      const refused = await consoleRun('webhooks:add', '--workspace', tenant.workspace.id, '--url', 'http://127.0.0.1:9/b');
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('limit of 1 live webhook endpoints');
    } finally {
      delete process.env.WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE;
    }
    expect(await endpointRows(api, tenant)).toHaveLength(1);
  });
});

describe('issue 26 item 9: registration resolves nothing', () => {
  it('registers a public name DNS cannot answer for right now, and refuses literals and local names without naming any resolved address', async () => {
    const tenant = await createTenant(defaults.db);
    // No DNS on this machine: the old check answered 400 "does not resolve" here.
    const created = await create(defaults, tenant, { url: 'https://hooks.partner.example/dubbing' });
    expect(created.status).toBe(201);
    expect(created.body.data.url).toBe('https://hooks.partner.example/dubbing');
    expect(await endpointRows(defaults, tenant)).toHaveLength(1);

    for (const url of ['http://localhost:5432/', 'http://postgres:5432/', 'http://metadata.google.internal/computeMetadata/v1/', 'http://[64:ff9b::a00:5]/']) {
      const refused = await create(defaults, tenant, { url });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'webhook_target_forbidden', param: 'url' });
      expect(refused.body.error.message).not.toMatch(/resolve|127\.0\.0\.1|::1/);
    }
    expect(await endpointRows(defaults, tenant)).toHaveLength(1);
  });
});

describe('issue 26 item 10: signing secrets', () => {
  it('are stored sealed, kept out of the stored replay, filled in on replay while the endpoint lives, and gone with it', async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const body = { url: 'http://127.0.0.1:9/secret' };
    const created = await create(api, tenant, body, key);
    expect(created.status).toBe(201);
    const { id, secret } = created.body.data as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);

    const [row] = await endpointRows(api, tenant);
    expect(row!.secret).toMatch(/^v1:/);
    expect(row!.secret).not.toContain(secret.slice(6));
    expect(openSecret(api.config.webhooks.secretKey, id, row!.secret)).toBe(secret);
    const [stored] = await keyRows(api, tenant);
    expect(stored!.response_status).toBe(201);
    expect(stored!.response_body).not.toContain(secret);
    expect(JSON.parse(stored!.response_body!).data).toMatchObject({ id, secret: null, secret_hint: `whsec_…${secret.slice(-4)}` });

    const replay = await create(api, tenant, body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created.body);
    const shown = await request(api.baseUrl, 'GET', `/v1/webhooks/${id}`, { headers: bearer(tenant.key) });
    expect(shown.body.data.secret_hint).toBe(`whsec_…${secret.slice(-4)}`);

    expect((await request(api.baseUrl, 'DELETE', `/v1/webhooks/${id}`, { headers: bearer(tenant.key) })).status).toBe(200);
    expect((await endpointRows(api, tenant))[0]).toMatchObject({ id, secret: null, deleted_at: expect.any(Date) });
    const afterDelete = await create(api, tenant, body, key);
    expect(afterDelete.status).toBe(409);
    expect(afterDelete.body.error).toMatchObject({ type: 'conflict_error', code: 'webhook_endpoint_deleted' });
    expect(JSON.stringify(afterDelete.body)).not.toContain(secret);
    expect(afterDelete.headers.get('idempotent-replayed')).toBeNull();
    expect(await endpointRows(api, tenant)).toHaveLength(1);
  });

  it('written before this change: the migration clears deleted ones and scrubs stored replays; the console seals the rest', async () => {
    const tenant = await createTenant(api.db);
    const live = { id: randomUUID(), secret: `whsec_${'L'.repeat(43)}` };
    const gone = { id: randomUUID(), secret: `whsec_${'G'.repeat(43)}` };
    for (const [endpoint, deletedAt] of [
      [live, null],
      [gone, new Date()],
    ] as const) {
      await api.db
        .insertInto('webhook_endpoints')
        .values({
          id: endpoint.id,
          workspace_id: tenant.workspace.id,
          url: 'http://127.0.0.1:9/old',
          secret: endpoint.secret,
          enabled_events: ['project.completed'],
          description: null,
          deleted_at: deletedAt,
        })
        .execute();
    }
    // The create response as the old code stored it, secret and all.
    const key = randomUUID();
    const oldResponse = JSON.stringify({
      data: {
        id: live.id,
        object: 'webhook_endpoint',
        url: 'http://127.0.0.1:9/old',
        description: null,
        enabled_events: ['project.completed'],
        secret_hint: `whsec_…LLLL`,
        created_at: new Date().toISOString(),
        secret: live.secret,
      },
    });
    await api.db
      .insertInto('idempotency_keys')
      .values({ workspace_id: tenant.workspace.id, key, method: 'POST', path: '/v1/webhooks', request_sha256: 'x'.repeat(64), locked_at: null, response_status: 201, response_body: oldResponse })
      .execute();

    await migrateWebhookSecrets(api.db as never); // the migration's up again, on these rows
    const byId = new Map((await endpointRows(api, tenant)).map((row) => [row.id, row]));
    expect(byId.get(gone.id)!.secret).toBeNull();
    expect(byId.get(live.id)!.secret).toBe(live.secret); // readable as it is until sealed
    const [stored] = await keyRows(api, tenant);
    expect(stored!.response_body).toBe(oldResponse.replace(`"secret":"${live.secret}"`, '"secret":null'));

    const sealed = await consoleRun('webhooks:seal-secrets');
    expect(sealed.code).toBe(0);
    expect(sealed.out).toMatch(/^sealed [1-9]\d* webhook signing secrets?$/);
    const after = await api.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', live.id).executeTakeFirstOrThrow();
    expect(after.secret).toMatch(/^v1:/);
    expect(openSecret(api.config.webhooks.secretKey, live.id, after.secret)).toBe(live.secret);
    // Safe to repeat: a sealed secret is left as it is.
    expect((await consoleRun('webhooks:seal-secrets')).code).toBe(0);
    expect((await api.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', live.id).executeTakeFirstOrThrow()).secret).toBe(after.secret);
    const shown = await request(api.baseUrl, 'GET', `/v1/webhooks/${live.id}`, { headers: bearer(tenant.key) });
    expect(shown.body.data.secret_hint).toBe('whsec_…LLLL');
  });
});

describe('issue 26 item 14: private targets are never inferred from NODE_ENV', () => {
  it('refuses the cloud metadata address with NODE_ENV=development and WEBHOOK_ALLOW_PRIVATE_TARGETS unset, writing nothing', async () => {
    expect(defaults.config.env).toBe('development');
    expect(defaults.config.webhooks.allowPrivateTargets).toBe(false);
    const tenant = await createTenant(defaults.db);
    const refused = await create(defaults, tenant, { url: 'http://169.254.169.254/latest' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'webhook_target_forbidden', param: 'url' });
    expect(await endpointRows(defaults, tenant)).toEqual([]);
    expect(await keyRows(defaults, tenant)).toEqual([]);
  });
});
