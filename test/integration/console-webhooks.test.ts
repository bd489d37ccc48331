import { randomUUID } from 'node:crypto';
import { openSecret } from '../../src/webhooks/secret-box';
import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// webhooks:add / list / remove write the same rows the API reads, under the same target rules.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const rows = (workspaceId: string) => api.db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).execute();

describe('console: webhooks', () => {
  it('adds an endpoint the API shows, lists it without its secret, and removes it', async () => {
    const tenant = await createTenant(api.db);
    const added = await consoleRun(
      'webhooks:add',
      '--workspace',
      tenant.workspace.id,
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'project.completed,project.failed',
      '--description',
      'ops receiver',
    );
    expect(added.code).toBe(0);
    const secret = /signing secret \(shown once\): (whsec_\S+)/.exec(added.out)![1]!;
    const [row] = await rows(tenant.workspace.id);
    expect(row).toMatchObject({ url: 'http://127.0.0.1:9/hook', enabled_events: ['project.completed', 'project.failed'], description: 'ops receiver', deleted_at: null });
    expect(openSecret(api.config.webhooks.secretKey, row!.id, row!.secret)).toBe(secret);
    const shown = await request(api.baseUrl, 'GET', `/v1/webhooks/${row!.id}`, { headers: bearer(tenant.key) });
    expect(shown.body.data).toMatchObject({ id: row!.id, enabled_events: ['project.completed', 'project.failed'] });

    const listed = await consoleRun('webhooks:list', '--workspace', tenant.workspace.id);
    expect(listed.out).toContain(row!.id);
    expect(listed.out).not.toContain(secret);

    expect((await consoleRun('webhooks:remove', row!.id)).out).toBe(`removed webhook endpoint ${row!.id}`);
    expect((await rows(tenant.workspace.id))[0]!.deleted_at).toBeInstanceOf(Date);
    expect((await consoleRun('webhooks:remove', row!.id)).code).toBe(1);
    expect((await consoleRun('webhooks:list', '--workspace', tenant.workspace.id)).out).toBe('no webhook endpoints');
  });

  it('refuses bad input with exit code 2 and writes nothing', async () => {
    const tenant = await createTenant(api.db);
    expect((await consoleRun('webhooks:add', '--workspace', tenant.workspace.id, '--url', 'ftp://127.0.0.1/hook')).code).toBe(2);
    expect((await consoleRun('webhooks:add', '--workspace', tenant.workspace.id, '--url', 'http://127.0.0.1/hook', '--events', 'project.exploded')).code).toBe(2);
    expect((await consoleRun('webhooks:add', '--workspace', 'not-a-uuid', '--url', 'http://127.0.0.1/hook')).code).toBe(2);
    expect((await consoleRun('webhooks:add', '--workspace', randomUUID(), '--url', 'http://127.0.0.1/hook')).code).toBe(1);
    const allowed = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    try {
      const internal = await consoleRun('webhooks:add', '--workspace', tenant.workspace.id, '--url', 'http://10.0.0.8/hook');
      expect(internal.code).toBe(2);
      expect(internal.out).toContain('public addresses only');
    } finally {
      if (allowed === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
      else process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = allowed;
    }
    expect(await rows(tenant.workspace.id)).toEqual([]);
  });
});
