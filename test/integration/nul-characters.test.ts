import { randomUUID } from 'node:crypto';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// PostgreSQL text cannot hold U+0000, so a NUL in any stored or queried string used to fail the
// query with a 500. It is refused up front with a 400 naming the field, and nothing is written.

let api: TestApi;
let tenant: TestTenant;
beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 1_000_000 });
});
afterAll(() => api.close());

const NUL = '\u0000';

describe('NUL characters in stored or queried strings', () => {
  const bodies: [string, Record<string, unknown>][] = [
    ['name', projectBody({ name: `Cooking${NUL}rice` })],
    ['external_id', projectBody({ external_id: `ext-${NUL}` })],
    ['publishing.title', projectBody({ publishing: { title: `Title ${NUL}` } })],
    ['publishing.description', projectBody({ publishing: { title: 'ok', description: `${NUL}` } })],
    // The URL parser strips a trailing control character, so this one used to pass the YouTube check.
    ['source.url', projectBody({ source: { type: 'youtube', url: `https://youtu.be/dQw4w9WgXcQ${NUL}` } })],
  ];
  it.each(bodies)('item 9: refuses NUL in %s on create with 400 naming the field, writing nothing', async (param, body) => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param });
    expect(res.body.error.message).toContain('NUL');
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  // JSON can carry half a UTF-16 pair ("\ud83c"); UTF-8 cannot, so PostgreSQL stored U+FFFD instead
  // of what was sent (fuzz finding). Refused the same way, naming the field.
  it.each([
    ['name', projectBody({ name: 'Cooking \ud83c rice' })],
    ['publishing.description', projectBody({ publishing: { title: 'ok', description: 'tail \udc00' } })],
  ])('refuses a lone surrogate in %s on create with 400 naming the field, writing nothing', async (param, body) => {
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', { headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() }, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param });
    expect(res.body.error.message).toContain('lone surrogate');
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it.each(['query', 'external_id', 'youtube_video_id'])('item 9: refuses NUL in the list filter %s with 400 naming it', async (param) => {
    const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects?${param}=a%00b`, { headers: bearer(tenant.key) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_parameter', param });
    // The same filter without the NUL is an ordinary (empty) search.
    expect((await request(api.baseUrl, 'GET', `/v1/dubbing/projects?${param}=ab`, { headers: bearer(tenant.key) })).status).toBe(200);
  });

  it('item 9: still accepts the same create without the NUL', async () => {
    const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', {
      headers: { ...bearer(tenant.key), 'idempotency-key': randomUUID() },
      body: projectBody({ name: 'Cooking rice', external_id: 'ext-1', publishing: { title: 'Title', description: 'Text' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Cooking rice', external_id: 'ext-1', publishing: { title: 'Title', description: 'Text' } });
  });
});
