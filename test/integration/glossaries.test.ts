import { randomUUID } from 'node:crypto';
import { issueApiKey } from '../../src/auth/issue-api-key';
import { pinnedGlossaryEntries } from '../../src/db/glossaries';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { request, type TestApi } from '../helpers/test-api';
import { transcriptsApiSuite } from '../helpers/transcripts-api';

// Glossaries over HTTP (docs/glossaries.md), on the real app and PostgreSQL: versions that stay
// readable, projects that pin one, a change of a project's glossary that stales exactly the
// lines whose source holds a changed term (completed projects are written straight to the
// tables, as the workflows leave them; no workflow runs here), deletes that keep what projects
// pinned, tenancy, permissions, and bad glossaries that write nothing.

let api: TestApi;
const { call, lineRows, newProject, completedProject } = transcriptsApiSuite((started) => (api = started));

const post = (tenant: TestTenant, body: unknown, key = randomUUID()) => request(api.baseUrl, 'POST', '/v1/glossaries', { headers: { ...bearer(tenant.key), 'idempotency-key': key }, body });
const rowCounts = async (workspaceId: string) => {
  const glossaries = await api.db.selectFrom('glossaries').select('id').where('workspace_id', '=', workspaceId).execute();
  const ids = glossaries.map((g) => g.id);
  const versions = ids.length ? await api.db.selectFrom('glossary_versions').select('version').where('glossary_id', 'in', ids).execute() : [];
  return { glossaries: ids.length, versions: versions.length };
};
const projectPin = async (id: string) => api.db.selectFrom('projects').select(['glossary_id', 'glossary_version']).where('id', '=', id).executeTakeFirstOrThrow();
const statuses = async (id: string, locale: string) => (await lineRows(id, locale)).map((l) => l.status);

const RICE = { term: 'rice', translations: { es_es: 'arroz', ca_es: 'arròs' } };
const KITCHEN = { term: 'Kitchen', keep: true };

describe('a glossary', () => {
  it('is created as version 1; a PUT makes version 2 while version 1 stays readable; the same PUT again makes none', async () => {
    const tenant = await createTenant(api.db);
    const key = randomUUID();
    const created = await post(
      tenant,
      { name: ' Kitchen ', source_locale: 'en_us', entries: [{ term: '  Rice Cooker Pro ', case_sensitive: true, keep: true, pronunciations: { es_es: 'ráis kúker pro' } }, RICE] },
      key,
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^gls_[a-z0-9]{12,16}$/),
      object: 'glossary',
      name: 'Kitchen',
      source_locale: 'en_us',
      version: 1,
      latest_version: 1,
      entries: [
        { term: 'Rice Cooker Pro', case_sensitive: true, keep: true, translations: {}, pronunciations: { es_es: 'ráis kúker pro' } },
        { term: 'rice', case_sensitive: false, keep: false, translations: { ca_es: 'arròs', es_es: 'arroz' }, pronunciations: {} },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    // The same key and body: the same answer, nothing written twice.
    const replayed = await post(
      tenant,
      { name: ' Kitchen ', source_locale: 'en_us', entries: [{ term: '  Rice Cooker Pro ', case_sensitive: true, keep: true, pronunciations: { es_es: 'ráis kúker pro' } }, RICE] },
      key,
    );
    expect([replayed.status, replayed.body]).toEqual([201, created.body]);
    expect(await rowCounts(tenant.workspace.id)).toEqual({ glossaries: 1, versions: 1 });
    expect((await call(tenant, 'GET', `/v1/glossaries/${id}`)).body).toEqual(created.body);

    const updated = await call(tenant, 'PUT', `/v1/glossaries/${id}`, { name: 'Kitchen 2', entries: [{ ...RICE, translations: { es_es: 'arroz blanco' } }, KITCHEN] });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id,
      name: 'Kitchen 2',
      version: 2,
      latest_version: 2,
      entries: [
        { term: 'rice', translations: { es_es: 'arroz blanco' } },
        { term: 'Kitchen', keep: true },
      ],
    });
    const first = await call(tenant, 'GET', `/v1/glossaries/${id}?version=1`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ ...created.body.data, latest_version: 2 });
    expect((await call(tenant, 'GET', `/v1/glossaries/${id}`)).body).toEqual(updated.body);
    const missing = await call(tenant, 'GET', `/v1/glossaries/${id}?version=3`);
    expect([missing.status, missing.body.error.code, missing.body.error.param]).toEqual([404, 'not_found', 'version']);

    const again = await call(tenant, 'PUT', `/v1/glossaries/${id}`, { entries: updated.body.data.entries });
    expect(again.body.data).toEqual(updated.body.data);
    expect(await rowCounts(tenant.workspace.id)).toEqual({ glossaries: 1, versions: 2 });
    // A version is never rewritten, whoever tries.
    await expect(api.db.updateTable('glossary_versions').set({ name: 'changed' }).where('glossary_id', '=', id).execute()).rejects.toThrow(/immutable/);
  });

  it('lists newest first, a page at a time', async () => {
    const tenant = await createTenant(api.db);
    const ids = [];
    for (const name of ['one', 'two', 'three']) ids.push((await post(tenant, { name, source_locale: 'en_us', entries: [KITCHEN] })).body.data.id);
    const page1 = await call(tenant, 'GET', '/v1/glossaries?limit=2');
    expect(page1.body.data.map((g: any) => [g.id, g.name, g.version, g.entry_count])).toEqual([
      [ids[2], 'three', 1, 1],
      [ids[1], 'two', 1, 1],
    ]);
    expect(page1.body.page.has_more).toBe(true);
    const page2 = await call(tenant, 'GET', `/v1/glossaries?limit=2&cursor=${page1.body.page.next_cursor}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: ids[0], object: 'glossary' })], page: { has_more: false, next_cursor: null } });
    const tampered = await call(tenant, 'GET', `/v1/glossaries?cursor=${page1.body.page.next_cursor}x`);
    expect([tampered.status, tampered.body.error.code]).toEqual([400, 'invalid_cursor']);
  });

  it('refuses bad entries with the field named, and writes nothing', async () => {
    const tenant = await createTenant(api.db);
    const { id } = (await post(tenant, { name: 'ok', source_locale: 'en_us', entries: [KITCHEN] })).body.data;
    const before = await rowCounts(tenant.workspace.id);
    const many = Array.from({ length: 1001 }, (_, i) => ({ term: `term ${i}`, keep: true }));
    const refusals: [unknown[], string, string][] = [
      [[KITCHEN, { term: 'kitchen', keep: true }], 'duplicate_glossary_term', 'entries[1].term'],
      [
        [
          { term: 'Apple', case_sensitive: true, keep: true },
          { term: 'APPLE', keep: true },
        ],
        'duplicate_glossary_term',
        'entries[1].term',
      ],
      [
        [
          { term: 'rice  cooker', keep: true },
          { term: 'rice cooker', case_sensitive: true, keep: true },
        ],
        'duplicate_glossary_term',
        'entries[1].term',
      ],
      [[KITCHEN, { term: 'rice' }], 'invalid_parameter', 'entries[1]'],
      [[{ term: 'rice', keep: false, translations: {}, pronunciations: {} }], 'invalid_parameter', 'entries[0]'],
      [[{ term: '   ', keep: true }], 'invalid_parameter', 'entries[0].term'],
      [[{ term: 'x'.repeat(101), keep: true }], 'invalid_parameter', 'entries[0].term'],
      [[{ term: 'two\nlines', keep: true }], 'invalid_parameter', 'entries[0].term'],
      [[{ term: 'rice', translations: { xx_yy: 'arroz' } }], 'unsupported_locale', 'entries[0].translations.xx_yy'],
      [[{ term: 'rice', pronunciations: { en_us: 'rais' } }], 'invalid_parameter', 'entries[0].pronunciations.en_us'],
      [[{ term: 'rice', translations: { es_es: 'a'.repeat(201) } }], 'invalid_parameter', 'entries[0].translations.es_es'],
      [[{ term: 'rice', translations: { Spanish: 'arroz' } }], 'invalid_parameter', 'entries[0].translations'],
      [[{ term: 'rice', keep: true, extra: 1 }], 'unknown_parameter', 'entries[0].extra'],
      [many, 'invalid_parameter', 'entries'],
    ];
    for (const [entries, code, param] of refusals) {
      const created = await post(tenant, { name: 'bad', source_locale: 'en_us', entries });
      expect([created.status, created.body.error?.type, created.body.error?.code, created.body.error?.param]).toEqual([400, 'invalid_request_error', code, param]);
      const updated = await call(tenant, 'PUT', `/v1/glossaries/${id}`, { entries });
      expect([updated.status, updated.body.error?.code, updated.body.error?.param]).toEqual([400, code, param]);
    }
    const badSource = await post(tenant, { name: 'bad', source_locale: 'xx_yy', entries: [KITCHEN] });
    expect([badSource.status, badSource.body.error.code, badSource.body.error.param]).toEqual([400, 'unsupported_locale', 'source_locale']);
    const sourceChange = await call(tenant, 'PUT', `/v1/glossaries/${id}`, { source_locale: 'en_gb', entries: [KITCHEN] });
    expect([sourceChange.status, sourceChange.body.error.param]).toEqual([400, 'source_locale']);
    expect(await rowCounts(tenant.workspace.id)).toEqual(before);
    // The limit itself is accepted: 1,000 entries.
    expect((await post(tenant, { name: 'big', source_locale: 'en_us', entries: many.slice(0, 1000) })).status).toBe(201);
  });
});

describe("a project's glossary", () => {
  it('is pinned at create, the latest version unless one is named; an unknown glossary or version is a 400 that creates nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id: glossaryId } = (await post(tenant, { name: 'g', source_locale: 'en_us', entries: [RICE] })).body.data;
    await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, { entries: [RICE, KITCHEN] });
    const latest = await createProject(api, tenant, projectBody({ glossary: { id: glossaryId } }));
    expect([latest.status, latest.body.data.glossary]).toEqual([201, { id: glossaryId, version: 2 }]);
    expect((await call(tenant, 'GET', `/v1/dubbing/projects/${latest.body.data.id}`)).body.data.glossary).toEqual({ id: glossaryId, version: 2 });
    expect(await pinnedGlossaryEntries(api.db, latest.body.data.id)).toEqual([expect.objectContaining({ term: 'rice' }), expect.objectContaining({ term: 'Kitchen' })]);
    const first = await createProject(api, tenant, projectBody({ glossary: { id: glossaryId, version: 1 } }));
    expect(first.body.data.glossary).toEqual({ id: glossaryId, version: 1 });
    expect((await pinnedGlossaryEntries(api.db, first.body.data.id)).map((e) => e.term)).toEqual(['rice']);
    const none = await createProject(api, tenant, projectBody());
    expect(none.body.data.glossary).toBeNull();
    expect(await pinnedGlossaryEntries(api.db, none.body.data.id)).toEqual([]);

    const before = await workspaceRowCounts(api, tenant.workspace.id);
    for (const [glossary, param] of [
      [{ id: 'gls_doesnotexist00' }, 'glossary.id'],
      [{ id: 'not-an-id' }, 'glossary.id'],
      [{ id: glossaryId, version: 3 }, 'glossary.version'],
    ] as const) {
      const refused = await createProject(api, tenant, projectBody({ glossary }));
      expect([refused.status, refused.body.error.code, refused.body.error.param]).toEqual([400, 'invalid_parameter', param]);
    }
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it('changed by PUT stales exactly the lines whose source holds a changed term, in the locales it concerns; edited lines stay edited', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    // Lines: "Hello everyone and welcome to the kitchen." / "Today we cook rice." / "With fresh vegetables."
    const { id } = await completedProject(tenant, { locales: ['es_es', 'ca_es'] });
    const { id: glossaryId } = (await post(tenant, { name: 'g', source_locale: 'en_us', entries: [RICE, { term: 'kitchen', keep: true }] })).body.data;

    const pinned = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId });
    expect(pinned.body).toEqual({ data: { project_id: id, glossary: { id: glossaryId, version: 1 }, stale_lines: { ca_es: 2, es_es: 2 } } });
    expect(await statuses(id, 'es_es')).toEqual(['stale', 'stale', 'current']);
    expect(await projectPin(id)).toEqual({ glossary_id: glossaryId, glossary_version: 1 });
    // As the languages' regenerations leave them: current again, with the glossary applied.
    await api.db.updateTable('language_segments').set({ status: 'current' }).where('project_id', '=', id).execute();
    // A person's words for the Catalan rice line.
    await api.db.updateTable('language_segments').set({ status: 'edited' }).where('project_id', '=', id).where('locale', '=', 'ca_es').where('position', '=', 1).execute();

    // Version 2: rice changes in Spanish only; version 3 also in Catalan, whose line is edited.
    await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, {
      entries: [
        { ...RICE, translations: { es_es: 'arroz blanco', ca_es: 'arròs' } },
        { term: 'kitchen', keep: true },
      ],
    });
    const v2 = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId, version: 2 });
    expect(v2.body.data).toEqual({ project_id: id, glossary: { id: glossaryId, version: 2 }, stale_lines: { ca_es: 0, es_es: 1 } });
    expect(await statuses(id, 'es_es')).toEqual(['current', 'stale', 'current']);
    expect(await statuses(id, 'ca_es')).toEqual(['current', 'edited', 'current']);
    await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, {
      entries: [
        { ...RICE, translations: { es_es: 'arroz blanco', ca_es: 'arròs blanc' } },
        { term: 'kitchen', keep: true },
      ],
    });
    const v3 = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId });
    expect(v3.body.data).toEqual({ project_id: id, glossary: { id: glossaryId, version: 3 }, stale_lines: { ca_es: 0, es_es: 0 } });
    expect(await statuses(id, 'ca_es')).toEqual(['current', 'edited', 'current']);
    // The same pin again changes nothing.
    expect((await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId, version: 3 })).body.data.stale_lines).toEqual({ ca_es: 0, es_es: 0 });

    // No glossary any more: the kitchen line (kept before) goes stale in both languages.
    const removed = await call(tenant, 'DELETE', `/v1/dubbing/projects/${id}/glossary`);
    expect(removed.body.data).toEqual({ project_id: id, glossary: null, stale_lines: { ca_es: 1, es_es: 1 } });
    expect(await statuses(id, 'es_es')).toEqual(['stale', 'stale', 'current']);
    expect((await call(tenant, 'GET', `/v1/dubbing/projects/${id}`)).body.data.glossary).toBeNull();
    expect((await call(tenant, 'DELETE', `/v1/dubbing/projects/${id}/glossary`)).body.data.glossary).toBeNull();
  });

  it('waits for the project like a transcript edit, and refuses what names no glossary of the workspace', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id: glossaryId } = (await post(tenant, { name: 'g', source_locale: 'en_us', entries: [RICE] })).body.data;
    const { id: busy } = await completedProject(tenant, { status: 'processing', languageStatus: 'dubbing' });
    const refused = await call(tenant, 'PUT', `/v1/dubbing/projects/${busy}/glossary`, { id: glossaryId });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'project_busy']);
    expect(await projectPin(busy)).toEqual({ glossary_id: null, glossary_version: null });
    expect(await statuses(busy, 'es_es')).toEqual(['current', 'current', 'current']);

    const id = await newProject(tenant);
    for (const [body, param] of [
      [{ id: 'gls_doesnotexist00' }, 'id'],
      [{ id: glossaryId, version: 2 }, 'version'],
      [{}, 'id'],
    ] as const) {
      const bad = await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, body);
      expect([bad.status, bad.body.error.param]).toEqual([400, param]);
    }
    expect(await projectPin(id)).toEqual({ glossary_id: null, glossary_version: null });
    // Before the upload, nothing to stale: the pin is all that changes.
    expect((await call(tenant, 'PUT', `/v1/dubbing/projects/${id}/glossary`, { id: glossaryId })).body.data).toEqual({
      project_id: id,
      glossary: { id: glossaryId, version: 1 },
      stale_lines: { es_es: 0 },
    });
  });
});

describe('deleting a glossary', () => {
  it('removes it from reads, lists and new pins; a project that pins it keeps its version, readable by number', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const { id: glossaryId } = (await post(tenant, { name: 'g', source_locale: 'en_us', entries: [RICE] })).body.data;
    await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, { entries: [KITCHEN] });
    const project = (await createProject(api, tenant, projectBody({ glossary: { id: glossaryId, version: 1 } }))).body.data.id;

    const deleted = await call(tenant, 'DELETE', `/v1/glossaries/${glossaryId}`);
    expect(deleted.body).toEqual({ data: { id: glossaryId, object: 'glossary', deleted: true } });
    expect((await call(tenant, 'GET', `/v1/glossaries/${glossaryId}`)).status).toBe(404);
    expect((await call(tenant, 'GET', `/v1/glossaries/${glossaryId}?version=2`)).status).toBe(404);
    const pinnedVersion = await call(tenant, 'GET', `/v1/glossaries/${glossaryId}?version=1`);
    expect(pinnedVersion.body.data).toMatchObject({ id: glossaryId, version: 1, entries: [{ term: 'rice' }], deleted_at: expect.any(String) });
    expect((await call(tenant, 'GET', '/v1/glossaries')).body.data).toEqual([]);
    expect((await call(tenant, 'PUT', `/v1/glossaries/${glossaryId}`, { entries: [KITCHEN] })).status).toBe(404);
    expect((await call(tenant, 'DELETE', `/v1/glossaries/${glossaryId}`)).status).toBe(404);
    expect((await createProject(api, tenant, projectBody({ glossary: { id: glossaryId } }))).body.error.param).toBe('glossary.id');
    expect((await call(tenant, 'GET', `/v1/dubbing/projects/${project}`)).body.data.glossary).toEqual({ id: glossaryId, version: 1 });
    expect((await pinnedGlossaryEntries(api.db, project)).map((e) => e.term)).toEqual(['rice']);
  });
});

describe('tenancy and permissions', () => {
  it("another workspace's glossary is the same 404 as an unknown one, and no project of another workspace can pin it", async () => {
    const owner = await createTenant(api.db, { credits: 10_000 });
    const other = await createTenant(api.db, { credits: 10_000 });
    const { id } = (await post(owner, { name: 'g', source_locale: 'en_us', entries: [RICE] })).body.data;
    const unknown = await call(other, 'GET', '/v1/glossaries/gls_doesnotexist00');
    const malformed = await call(other, 'GET', '/v1/glossaries/nope');
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { entries: [KITCHEN] }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await call(other, method, `/v1/glossaries/${id}`, body);
      expect([answer.status, answer.body.error.type, answer.body.error.code, answer.body.error.message, answer.body.error.param]).toEqual([
        404,
        unknown.body.error.type,
        unknown.body.error.code,
        unknown.body.error.message,
        unknown.body.error.param,
      ]);
    }
    expect([malformed.status, malformed.body.error.message]).toEqual([404, unknown.body.error.message]);
    expect((await call(other, 'GET', `/v1/glossaries/${id}?version=1`)).status).toBe(404);
    expect((await call(other, 'GET', '/v1/glossaries')).body.data).toEqual([]);
    expect((await createProject(api, other, projectBody({ glossary: { id } }))).body.error.param).toBe('glossary.id');
    const project = await newProject(other);
    expect((await call(other, 'PUT', `/v1/dubbing/projects/${project}/glossary`, { id })).body.error.param).toBe('id');
    // The owner's glossary is untouched.
    expect((await call(owner, 'GET', `/v1/glossaries/${id}`)).body.data).toMatchObject({ version: 1, latest_version: 1 });
  });

  it('reads with dubbing:read, changes with dubbing:write', async () => {
    const owner = await createTenant(api.db, { credits: 10_000 });
    const { id } = (await post(owner, { name: 'g', source_locale: 'en_us', entries: [RICE] })).body.data;
    const project = await newProject(owner);
    const keyWith = async (permissions: ('dubbing:read' | 'usage:read')[]) =>
      ({ ...owner, key: (await issueApiKey(api.db, { workspaceId: owner.workspace.id, kind: 'project', userId: null, name: 'limited', permissions })).key }) as TestTenant;
    const reader = await keyWith(['dubbing:read']);
    expect((await call(reader, 'GET', `/v1/glossaries/${id}`)).status).toBe(200);
    expect((await call(reader, 'GET', '/v1/glossaries')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v1/glossaries', { name: 'x', source_locale: 'en_us', entries: [KITCHEN] }],
      ['PUT', `/v1/glossaries/${id}`, { entries: [KITCHEN] }],
      ['DELETE', `/v1/glossaries/${id}`, undefined],
      ['PUT', `/v1/dubbing/projects/${project}/glossary`, { id }],
      ['DELETE', `/v1/dubbing/projects/${project}/glossary`, undefined],
    ] as const) {
      const refused = await request(api.baseUrl, method, path, { headers: { ...bearer(reader.key), 'idempotency-key': randomUUID() }, body });
      expect([method, path, refused.status, refused.body.error.code]).toEqual([method, path, 403, 'permission_denied']);
    }
    const usageOnly = await keyWith(['usage:read']);
    expect((await call(usageOnly, 'GET', `/v1/glossaries/${id}`)).status).toBe(403);
    expect(await rowCounts(owner.workspace.id)).toEqual({ glossaries: 1, versions: 1 });
    expect(await projectPin(project)).toEqual({ glossary_id: null, glossary_version: null });
  });
});
