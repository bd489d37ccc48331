import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The real app's log lines for real requests: one JSON line per request with the ids an operator
// greps for, and never a key's secret or a signed URL's signature (the create and GET answers
// carry signed part URLs; the requests carry keys).

const chunks: string[] = [];
let api: TestApi;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  api = await startTestApi({}, [], 'last-known', createLogger('info', { service: 'api' }, stream));
});
afterAll(() => api.close());

const lines = () =>
  chunks
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

it('logs each request with request, workspace, key and project ids, and no secret or signature', async () => {
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const created = await createProject(api, tenant, projectBody());
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  const partUrl: string = created.body.data.transfer.parts[0].url;
  expect(partUrl).toMatch(/signature=[A-Za-z0-9_-]{16,}/);
  const read = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: { 'x-api-key': tenant.key, 'x-request-id': 'req_trace_me_1' } });
  expect(read.status).toBe(200);
  const forged = await request(api.baseUrl, 'GET', `/v1/usage?token=${encodeURIComponent(tenant.key)}`, { headers: bearer(`${tenant.key.slice(0, -4)}nope`) });
  expect(forged.status).toBe(401);

  const logged = lines();
  const createLine = logged.find((l) => l.message === 'request' && l.method === 'POST' && l.route === '/v1/dubbing/projects');
  expect(createLine).toMatchObject({ level: 'info', service: 'api', status: 201, workspace_id: tenant.workspace.id, key_id: tenant.keyId, request_id: created.headers.get('x-request-id') });
  expect(createLine!.duration_ms).toEqual(expect.any(Number));
  expect(logged.find((l) => l.request_id === 'req_trace_me_1')).toMatchObject({ route: '/v1/dubbing/projects/:project_id', project_id: id, workspace_id: tenant.workspace.id, status: 200 });
  expect(logged.find((l) => l.route === '/v1/usage')).toMatchObject({ status: 401 });

  const text = chunks.join('');
  const secret = tenant.key.split('_').pop()!;
  expect(text).not.toContain(secret);
  expect(text).not.toContain(secret.slice(0, -4));
  expect(text).not.toContain(new URL(partUrl).searchParams.get('signature')!);
  expect(text).not.toMatch(/signature=(?!\[redacted\])/);
});
