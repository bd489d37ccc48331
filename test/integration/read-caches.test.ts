import { revokeApiKey } from '../../src/db/api-keys';
import { bearer, createTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { waitFor } from '../helpers/wait-for';

// GET answers from caches (rendered project bodies, API key rows). These tests prove the
// caches never serve what the database no longer says.

let api: TestApi;
beforeAll(async () => { api = await startTestApi(); });
afterAll(() => api.close());

describe('project view cache', () => {
  it('shows a change made by any writer on the very next GET', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const id: string = (await createProject(api, tenant, projectBody({ target_locales: ['es_es'] }))).body.data.id;
    const get = async () => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}?include_transfer=false`, { headers: bearer(tenant.key) })).body.data;
    const first = await get();
    expect(await get()).toEqual(first); // served from the cache: same body

    // Writes the way the workflows do, straight to the tables; no API code is told.
    await api.db.updateTable('projects').set({ status: 'processing', phase: 'dubbing', usage_state: 'charged', billable_seconds: 7, charged_seconds: 7 }).where('id', '=', id).execute();
    expect((await get()).usage).toMatchObject({ state: 'charged', billable_seconds: 7 });
    await api.db.insertInto('project_languages').values({ project_id: id, locale: 'es_es', status: 'dubbing', phase_message: 'Synthesizing 3 segments.', failure_code: null, failure_message: null, title: null, description: null, drift_seconds: null, completed_at: null, percent: 40 }).execute();
    expect((await get()).languages).toMatchObject([{ locale: 'es_es', status: 'dubbing', progress: { percent: 40, message: 'Synthesizing 3 segments.' } }]);
    await api.db.updateTable('project_languages').set({ percent: 60 }).where('project_id', '=', id).execute();
    expect((await get()).languages[0].progress.percent).toBe(60);
  });

  it('shows a newly uploaded part in the transfer block at once', async () => {
    const tenant = await createTenant(api.db, { credits: 100_000 });
    const project = (await createProject(api, tenant, projectBody())).body.data;
    const transfer = async () => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${project.id}`, { headers: bearer(tenant.key) })).body.data.transfer;
    expect((await transfer()).parts[0].uploaded).toBe(false);
    const put = await fetch(project.transfer.parts[0].url, { method: 'PUT', body: Buffer.alloc(1000, 1) });
    expect(put.status).toBe(200);
    expect((await transfer()).parts[0]).toMatchObject({ uploaded: true, etag: put.headers.get('etag')!.replace(/"/g, '') });
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
