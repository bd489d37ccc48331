import { randomUUID } from 'node:crypto';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

let api: TestApi;
let tenant: TestTenant;
let ids: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 10_000_000 });
  // 7 projects, oldest first; two carry a YouTube source, one an external id.
  const bodies = [
    projectBody({ name: 'Alpha cooking show' }),
    projectBody({ name: 'Beta travel vlog', external_id: 'crm-42' }),
    projectBody({ name: 'Gamma review', source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa' } }),
    projectBody({ name: 'Delta cooking tips' }),
    projectBody({ name: 'Epsilon 100% real' }),
    projectBody({ name: 'Zeta interview', source: { type: 'youtube', url: 'https://youtu.be/bbbbbbbbbbb' } }),
    projectBody({ name: 'Eta cooking finale' }),
  ];
  for (const body of bodies) ids.push((await createProject(api, tenant, body)).body.data.id);
  ids = ids.reverse(); // newest first, as the API lists them
});
afterAll(() => api.close());

const list = (query: string, key = tenant.key) => request(api.baseUrl, 'GET', `/v1/dubbing/projects${query}`, { headers: bearer(key) });

describe('GET /v1/dubbing/projects', () => {
  it('lists newest first and pages to the end with an opaque cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((p: any) => p.id));
      expect(res.body.page.has_more).toBe(res.body.page.next_cursor !== null);
      cursor = res.body.page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it('returns list items as docs/design.md#progress says, with an honest progress object', async () => {
    const res = await list('?limit=1');
    const item = res.body.data[0];
    expect(item).toMatchObject({ id: ids[0], name: 'Eta cooking finale', status: 'awaiting_upload', target_locales: ['es_es'] });
    expect(item.progress).toEqual({
      phase: 'uploading',
      waiting_on: 'upload',
      can_advance_without_user: false,
      poll_after_seconds: 30,
      message: expect.stringContaining('0 of 1 part received'),
      percent: 0,
    });
  });

  it('filters by external_id, youtube_video_id, and query over names, external ids and video ids', async () => {
    const names = async (q: string) => (await list(q)).body.data.map((p: any) => p.name);
    expect(await names('?external_id=crm-42')).toEqual(['Beta travel vlog']);
    expect(await names('?youtube_video_id=bbbbbbbbbbb')).toEqual(['Zeta interview']);
    expect(await names('?query=cooking')).toEqual(['Eta cooking finale', 'Delta cooking tips', 'Alpha cooking show']);
    expect(await names('?query=COOKING&limit=2')).toEqual(['Eta cooking finale', 'Delta cooking tips']);
    expect(await names('?query=crm-42')).toEqual(['Beta travel vlog']);
    expect(await names('?query=aaaaaaaaaaa')).toEqual(['Gamma review']);
    expect(await names('?query=100%25')).toEqual(['Epsilon 100% real']); // % is literal, not a wildcard
    expect(await names('?query=nothing-matches')).toEqual([]);
  });

  it('refuses a tampered cursor and a cursor from another workspace', async () => {
    const first = await list('?limit=2');
    const cursor: string = first.body.page.next_cursor;
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 1, w: tenant.workspace.id })).toString('base64url');
    for (const bad of [`${forged}.${signature}`, `${payload}.AAAA${signature!.slice(4)}`, 'garbage']) {
      const res = await list(`?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_cursor', param: 'cursor' });
    }
    const other = await createTenant(api.db);
    const foreign = await list(`?cursor=${encodeURIComponent(cursor)}`, other.key);
    expect(foreign.body.error.code).toBe('invalid_cursor');
  });

  it('checks limit bounds and unknown parameters', async () => {
    for (const [query, code, param] of [
      ['?limit=0', 'invalid_parameter', 'limit'],
      ['?limit=51', 'invalid_parameter', 'limit'],
      ['?limit=2.5', 'invalid_parameter', 'limit'],
      ['?limit=abc', 'invalid_parameter', 'limit'],
      ['?sort=name', 'unknown_parameter', 'sort'],
    ]) {
      const res = await list(query!);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code, param });
    }
    expect((await list('?limit=50')).status).toBe(200);
  });

  it("never lists another workspace's projects", async () => {
    const other = await createTenant(api.db);
    const res = await list('', other.key);
    expect(res.body.data).toEqual([]);
    expect(res.body.page).toEqual({ has_more: false, next_cursor: null });
  });
});

describe('GET /v1/dubbing/projects/{id}', () => {
  it("answers another workspace's project with the same 404 as an unknown or malformed id", async () => {
    const other = await createTenant(api.db);
    const get = (id: string) => request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(other.key) });
    const bodies = await Promise.all([get(ids[0]!), get(randomUUID()), get('not-a-uuid')]);
    for (const res of bodies) {
      expect(res.status).toBe(404);
      const { request_id: _ignored, ...error } = res.body.error;
      expect(error).toEqual({ type: 'not_found_error', code: 'not_found', message: 'No such project.', param: 'project_id' });
    }
  });

  it('rejects a non-boolean include_transfer', async () => {
    const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${ids[0]}?include_transfer=maybe`, { headers: bearer(tenant.key) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'include_transfer' });
  });

  it('answers a download for a language that is not completed with 409 language_not_completed', async () => {
    const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${ids[0]}/download?locale=es_es&type=audio`, { headers: bearer(tenant.key) });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'language_not_completed' });
    const unknownLocale = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${ids[0]}/download?locale=fr_fr&type=audio`, { headers: bearer(tenant.key) });
    expect(unknownLocale.body.error).toMatchObject({ code: 'invalid_parameter', param: 'locale' });
    const wrongFormat = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${ids[0]}/download?locale=es_es&type=audio&format=vtt`, { headers: bearer(tenant.key) });
    expect(wrongFormat.body.error).toMatchObject({ code: 'invalid_parameter', param: 'format' });
    const wrongType = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${ids[0]}/download?locale=es_es&type=transcript`, { headers: bearer(tenant.key) });
    expect(wrongType.body.error).toMatchObject({ code: 'invalid_parameter', param: 'type' });
  });
});

describe('query numbers are read strictly', () => {
  it.each(['0x10', '1e1', '%205', '+5', '05'])('refuses limit=%s', async (value) => {
    const res = await list(`?limit=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'limit' });
  });
});
