import { revokeApiKey } from '../../src/db/api-keys';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, markChargedByHand, projectBody } from '../helpers/projects';
import { QueryCounter, selectFrom } from '../helpers/query-hook';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// GET /v1/dubbing/projects/{id} answers an ETag built on view_version, and a 304 to a matching
// If-None-Match; the API key rows are cached per process. These tests prove neither ever serves
// what the database no longer says.

/** The app's reads of a project's own tables (not its key, rate-limit or fleet reads) through Kysely. */
const PROJECT_TABLES = ['projects', 'project_languages', 'uploads', 'upload_parts', 'deliverables'];
const projectReads = new QueryCounter((node) => PROJECT_TABLES.some((table) => selectFrom(table)(node, { rows: [] })));

let api: TestApi;
/** The statements run on the pool itself: findProjectView's named one (Kysely checks out a client instead). */
let poolStatements: jest.SpyInstance;
beforeAll(async () => {
  api = await startTestApi({}, [projectReads]);
  poolStatements = jest.spyOn(api.pool, 'query');
});
afterAll(() => api.close());

describe('project ETag (issue 27 item 5)', () => {
  it('issue 27 item 5: GET answers a strong ETag; the same ETag in If-None-Match is a 304 with no body; a change by any writer is a 200 with a new ETag', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const id: string = (await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }))).body.data.id;
    const get = (headers: Record<string, string> = {}) => request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}?include_transfer=false`, { headers: { ...bearer(tenant.key), ...headers } });
    const first = await get();
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const unchanged = await get({ 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    // fetch() itself adds `Cache-Control: no-cache` to a request carrying If-None-Match: still a 304.
    expect((await get({ 'if-none-match': etag, 'cache-control': 'no-cache' })).status).toBe(304);
    // Another ETag, or none, is a full answer.
    expect((await get({ 'if-none-match': '"0-n-stale"' })).status).toBe(200);
    expect((await get()).body).toEqual(first.body);

    // Writes the way the workflows do, straight to the tables; no API code is told.
    await markChargedByHand(api.db, id);
    const charged = await get({ 'if-none-match': etag });
    expect(charged.status).toBe(200);
    expect(charged.body.data.usage).toMatchObject({ state: 'charged', billable_seconds: 7 });
    const chargedTag = charged.headers.get('etag')!;
    expect(chargedTag).not.toBe(etag);

    await api.db
      .insertInto('project_languages')
      .values({
        project_id: id,
        locale: 'es_es',
        status: 'dubbing',
        phase_message: 'Synthesizing 3 segments.',
        failure_code: null,
        failure_message: null,
        title: null,
        description: null,
        drift_seconds: null,
        completed_at: null,
        percent: 40,
      })
      .execute();
    const withLanguage = await get({ 'if-none-match': chargedTag });
    expect(withLanguage.status).toBe(200);
    expect(withLanguage.body.data.languages).toMatchObject([{ locale: 'es_es', status: 'dubbing', progress: { percent: 40, message: 'Synthesizing 3 segments.' } }]);
    await api.db.updateTable('project_languages').set({ percent: 60 }).where('project_id', '=', id).execute();
    const progressed = await get({ 'if-none-match': withLanguage.headers.get('etag')! });
    expect(progressed.status).toBe(200);
    expect(progressed.body.data.languages[0].progress.percent).toBe(60);
    expect(new Set([etag, chargedTag, withLanguage.headers.get('etag'), progressed.headers.get('etag')]).size).toBe(4);
    expect((await get({ 'if-none-match': progressed.headers.get('etag')! })).status).toBe(304);
  });

  it('issue 27 item 5: the transfer block has an ETag of its own, and a newly uploaded part changes it', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const project = (await createProject(api, tenant, projectBody())).body.data;
    const get = (query: string, headers: Record<string, string> = {}) => request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}${query}`, { headers: { ...bearer(tenant.key), ...headers } });
    const withTransfer = await get('');
    const without = await get('?include_transfer=false');
    expect(withTransfer.body.data.transfer.parts[0].uploaded).toBe(false);
    expect(without.body.data.transfer).toBeUndefined();
    expect(withTransfer.headers.get('etag')).not.toBe(without.headers.get('etag'));
    expect((await get('', { 'if-none-match': withTransfer.headers.get('etag')! })).status).toBe(304);

    const put = await fetch(project.transfer.parts[0].url, { method: 'PUT', body: Buffer.alloc(1000, 1) });
    expect(put.status).toBe(200);
    const after = await get('', { 'if-none-match': withTransfer.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.body.data.transfer.parts[0]).toMatchObject({ uploaded: true, etag: put.headers.get('etag')!.replace(/"/g, '') });
    expect(after.headers.get('etag')).not.toBe(withTransfer.headers.get('etag'));
  });
});

describe('GET project round trips (issue 27 item 5)', () => {
  it("issue 27 item 5: a first GET of a project is one SQL statement (its open upload's parts included); a repeat GET or a 304 is one primary-key read and the same body; a change is read afresh", async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const id: string = (await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }))).body.data.id;
    const get = async (headers: Record<string, string> = {}) => {
      const count = () => projectReads.count + poolStatements.mock.calls.length;
      const before = count();
      const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: { ...bearer(tenant.key), ...headers } });
      return { res, statements: count() - before };
    };
    const open = await get();
    expect(open.res.status).toBe(200);
    expect(open.res.body.data.transfer.part_count).toBe(1);
    expect(open.statements).toBe(1); // the project with all it shows, the open upload's parts included
    // Unchanged: the version read alone, then the body this process sent under the same ETag.
    const again = await get();
    expect(again.statements).toBe(1);
    expect(again.res.headers.get('etag')).toBe(open.res.headers.get('etag'));
    expect(again.res.headers.get('content-type')).toBe(open.res.headers.get('content-type'));
    expect(again.res.body).toEqual(open.res.body);
    // Another workspace's key is told nothing of it, remembered or not.
    const other = await createTenant(api.db, { credits: 100_000 });
    const foreign = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(other.key) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'project_id' });

    // Past its upload, with a language and its files, as the workflows leave it.
    await markChargedByHand(api.db, id);
    await api.db
      .insertInto('project_languages')
      .values({
        project_id: id,
        locale: 'es_es',
        status: 'completed',
        phase_message: null,
        failure_code: null,
        failure_message: null,
        title: 'Hola',
        description: null,
        drift_seconds: 0.25,
        completed_at: new Date('2026-01-02T03:04:05.678Z'),
        percent: 100,
      })
      .execute();
    await api.db
      .insertInto('deliverables')
      .values({ project_id: id, locale: 'es_es', type: 'audio', format: 'mp3', storage_key: `projects/${id}/es_es.mp3`, content_type: 'audio/mpeg', size_bytes: 1234 })
      .execute();
    const dubbed = await get();
    expect(dubbed.res.status).toBe(200);
    expect(dubbed.statements).toBe(2); // the version read says the remembered body is stale; then the view
    expect(dubbed.res.headers.get('etag')).not.toBe(open.res.headers.get('etag'));
    expect(dubbed.res.body.data.transfer).toBeUndefined();
    expect(dubbed.res.body.data.languages).toEqual([
      expect.objectContaining({
        locale: 'es_es',
        status: 'completed',
        publishing: { title: 'Hola', description: null },
        alignment: { drift_seconds: 0.25 },
        completed_at: '2026-01-02T03:04:05.678Z',
        deliverables: [{ type: 'audio', format: 'mp3', download_url: `${api.config.http.publicBaseUrl}/v1/dubbing/projects/${id}/download?locale=es_es&type=audio&format=mp3` }],
      }),
    ]);
    const language = await api.db.selectFrom('project_languages').select('created_at').where('project_id', '=', id).executeTakeFirstOrThrow();
    expect(dubbed.res.body.data.languages[0].created_at).toBe(language.created_at.toISOString());

    const unchanged = await get({ 'if-none-match': dubbed.res.headers.get('etag')! });
    expect(unchanged.res.status).toBe(304);
    expect(unchanged.statements).toBe(1);
    // A stale ETag: the row read, and the body a plain GET answers, remembered since.
    const stale = await get({ 'if-none-match': open.res.headers.get('etag')! });
    expect(stale.res.status).toBe(200);
    expect(stale.statements).toBe(1);
    expect(stale.res.body).toEqual(dubbed.res.body);
    expect(stale.res.headers.get('etag')).toBe(dubbed.res.headers.get('etag'));
  });
});

describe('API key cache', () => {
  it('stops accepting a cached key as soon as it is revoked', async () => {
    const tenant = await createTenant(api.db);
    const usage = () => request(api.baseUrl, 'GET', '/v1/usage', { headers: bearer(tenant.key) });
    expect((await usage()).status).toBe(200); // now cached
    expect((await usage()).status).toBe(200);
    await api.db.transaction().execute((trx) => revokeApiKey(trx, tenant.keyId));
    // The revocation travels by NOTIFY; it must land well before the 60 s cache TTL would expire
    // the entry. It takes milliseconds; 10 s leaves room for a loaded CI machine.
    const started = Date.now();
    await waitFor('revocation to reach the cache', async () => (await usage()).status === 401, 10_000, 10);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
