import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { getBalance } from '../../src/db/credits';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { putPart, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// upload/complete against what happens around it: another machine's clock, and a part
// re-uploaded while the completion runs. No worker: a project that reached `validating` here
// would be a failure of the test, not something to dub.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
});
afterAll(() => api?.close());

const CPS = 10;

/** An upload project of `size` random bytes with every part PUT; returns the parts list a client would send. */
async function uploadedProject(tenant: TestTenant, size: number) {
  const bytes = randomBytes(size); // completion checks parts, not media
  const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: bytes.length } }));
  expect(created.status).toBe(201);
  const project = created.body.data;
  const chunks = splitParts(bytes, project.transfer.part_size_bytes);
  const parts: { part_number: number; etag: string }[] = [];
  for (const part of project.transfer.parts) {
    const res = await putPart(part.url, chunks[part.part_number - 1]!);
    expect(res.status).toBe(200);
    parts.push({ part_number: part.part_number, etag: res.etag! });
  }
  const upload = await api.db.selectFrom('uploads').select(['id', 'part_count']).where('project_id', '=', project.id).executeTakeFirstOrThrow();
  return { id: project.id as string, uploadId: upload.id, partCount: upload.part_count, parts };
}

const complete = (tenant: TestTenant, projectId: string, parts: unknown) =>
  request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { headers: bearer(tenant.key), body: { parts } });

/** What must hold after a refused completion: nothing moved. */
async function expectStillAwaitingUpload(tenant: TestTenant, project: { id: string; uploadId: string }) {
  const upload = await api.db.selectFrom('uploads').select(['completed_at', 'completed_parts']).where('id', '=', project.uploadId).executeTakeFirstOrThrow();
  expect(upload).toEqual({ completed_at: null, completed_parts: null });
  const row = await api.db.selectFrom('projects').select(['status', 'phase', 'usage_state']).where('id', '=', project.id).executeTakeFirstOrThrow();
  expect(row).toEqual({ status: 'awaiting_upload', phase: 'uploading', usage_state: 'pending_validation' });
  const hold = await api.db.selectFrom('credit_holds').select('remaining').where('reference', '=', `${project.id}:hold`).executeTakeFirstOrThrow();
  expect(hold.remaining).toBe(60 * CPS);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 60 * CPS });
  const ledger = await api.db.selectFrom('credit_ledger').select('kind').where('project_id', '=', project.id).execute();
  expect(ledger).toEqual([{ kind: 'hold' }]);
}

describe('POST /upload/complete races', () => {
  // Old code (a25b1f9) judged expiry with `Date.now()` of the API process (here 10 minutes behind) and answered 200.
  it('item 10: a complete on a machine whose clock is behind cannot revive an expired upload', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await uploadedProject(tenant, 100_000);
    // Expired by the database's clock, the one the upload-expiry schedule judges with.
    await api.db
      .updateTable('uploads')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', project.uploadId)
      .execute();

    // The API runs in this process: only its Date goes 10 minutes back; timers keep running.
    jest.useFakeTimers({
      now: Date.now() - 10 * 60_000,
      doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'],
    });
    let res;
    try {
      res = await complete(tenant, project.id, project.parts);
    } finally {
      jest.useRealTimers();
    }
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'conflict_error', code: 'upload_expired' });
    await expectStillAwaitingUpload(tenant, project);
  });

  // Old code (a25b1f9) listed the parts before its transaction, without the lock, so it saw the old etag and answered 200.
  it('item 13: a part re-uploaded while complete runs is checked under the upload lock', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await uploadedProject(tenant, 100_000);
    expect(project.partCount).toBe(2);

    // What a part PUT does in its transaction: share-lock the upload row, then replace the part.
    const trx = await api.db.startTransaction().execute();
    let open = true;
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      const putPid = rows[0]!.pid;
      await trx.selectFrom('uploads').select('completed_at').where('id', '=', project.uploadId).forShare().executeTakeFirstOrThrow();
      await trx
        .updateTable('upload_parts')
        .set({ etag: 'f'.repeat(32) })
        .where('upload_id', '=', project.uploadId)
        .where('part_number', '=', 1)
        .execute();

      // The complete, with the etags the client was given, runs while the part PUT is in flight.
      const completing = complete(tenant, project.id, project.parts);
      // It must be waiting on the PUT's lock: only then does the commit below race it.
      await waitFor(
        'the complete to wait on the part upload',
        async () => {
          const blocked = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where ${putPid} = any(pg_blocking_pids(pid))`.execute(api.db);
          return Number(blocked.rows[0]!.n) > 0;
        },
        10_000,
        50,
      );
      await new Promise((r) => setTimeout(r, 500));
      await trx.commit().execute();
      open = false;

      const res = await completing;
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'upload_incomplete', param: 'parts' });
      expect(res.body.error.message).toContain('etag does not match the uploaded part for part 1');
      await expectStillAwaitingUpload(tenant, project);
    } finally {
      if (open) await trx.commit().execute();
    }
  });
});
