import { createPool } from '../../src/db/create-db';
import { findProjectView } from '../../src/db/project-view-query';
import { createTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { startTestApi, type TestApi } from '../helpers/test-api';

// findProjectView runs one statement two ways: by name on a pool (PostgreSQL plans it once per
// connection) and as a plain statement inside a transaction (the webhook snapshot). Both must
// read exactly the same view.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

it("the named statement on a pool and the plain one in a transaction give the same view, open upload's parts included", async () => {
  const tenant = await createTenant(api.db, { credits: 100_000 });
  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: 2000 } }));
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  const upload = await api.db.selectFrom('uploads').select(['id']).where('project_id', '=', id).executeTakeFirstOrThrow();
  await api.db
    .insertInto('upload_parts')
    .values([
      { upload_id: upload.id, part_number: 2, etag: 'e2', size_bytes: 1000, storage_key: null },
      { upload_id: upload.id, part_number: 1, etag: 'e1', size_bytes: 1000, storage_key: null },
    ])
    .execute();
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

  // One connection, so the prepared statement it keeps can be looked up on it.
  const pool = createPool({ url: api.config.database.url!, poolMax: 1 });
  try {
    const named = await findProjectView(pool, tenant.workspace.id, id);
    const again = await findProjectView(pool, tenant.workspace.id, id);
    const plain = await api.db.transaction().execute((trx) => findProjectView(trx, tenant.workspace.id, id));
    expect(named).toEqual(plain);
    expect(again).toEqual(named);
    expect(named!.parts).toEqual([
      { part_number: 1, etag: 'e1', size_bytes: 1000 },
      { part_number: 2, etag: 'e2', size_bytes: 1000 },
    ]);
    expect(named!.upload).toMatchObject({ id: upload.id, part_count: 1 });
    expect(named!.upload!.expires_at).toBeInstanceOf(Date);
    expect(named!.languages).toEqual([expect.objectContaining({ locale: 'es_es', completed_at: new Date('2026-01-02T03:04:05.678Z') })]);
    expect(named!.deliverables).toEqual([{ locale: 'es_es', type: 'audio', format: 'mp3' }]);
    const prepared = await pool.query<{ name: string; parameter_types: string[] }>('select name, parameter_types::text[] from pg_prepared_statements');
    expect(prepared.rows).toEqual([{ name: 'find-project-view', parameter_types: ['uuid', 'uuid'] }]);

    // A migration adding a column while the API runs must not break the statement a connection
    // has prepared (PostgreSQL refuses a prepared statement whose result columns change). Seen
    // from this one connection only: the column is rolled back.
    await pool.query('begin');
    try {
      await pool.query('alter table projects add column added_by_a_later_migration integer');
      expect(await findProjectView(pool, tenant.workspace.id, id)).toEqual(named);
    } finally {
      await pool.query('rollback');
    }

    // Past the upload, its parts are no longer part of the view; another workspace sees nothing.
    await api.db.updateTable('projects').set({ status: 'validating', phase: 'validating' }).where('id', '=', id).execute();
    expect((await findProjectView(pool, tenant.workspace.id, id))!.parts).toEqual([]);
    const other = await createTenant(api.db);
    expect(await findProjectView(pool, other.workspace.id, id)).toBeUndefined();
  } finally {
    await pool.end();
  }
});
