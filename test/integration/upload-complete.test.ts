import { randomBytes } from 'node:crypto';
import { ListMultipartUploadsCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { blobKeys } from '../../src/db/uploads';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { createProject, projectBody, workspaceRowCounts } from '../helpers/projects';
import { STORAGE_DRIVERS, storageEnv, testS3Client } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { md5, putPart, putPartAndDropConnection, putPartReadingRefusal, splitParts } from '../helpers/upload-client';

// Resuming and completing an upload, on both storage drivers: the API's own part route (local)
// and a real S3-compatible store reached through presigned URLs (s3). The API's answers and the
// rows it writes must be the same; only where the parts live differs. No worker: a completed
// upload's workflow is not this file's concern (the e2e test dubs one on each driver).

const CPS = 10;

describe.each(STORAGE_DRIVERS)('upload resume and complete on the %s driver', (driver) => {
  let api: TestApi;
  const s3 = driver === 's3' ? testS3Client() : null;
  /** Local parts are small to keep the suite quick; S3 refuses parts under 5 MiB (but the last). */
  const partSize = driver === 's3' ? 5 * 1024 * 1024 : 64 * 1024;

  beforeAll(async () => {
    api = await startTestApi({ ...storageEnv(driver), UPLOAD_PART_SIZE_BYTES: String(partSize) });
  });
  afterAll(async () => {
    await api?.close();
    s3?.client.destroy();
  });

  /** An upload project of 2 full parts and a short third, nothing sent yet. */
  async function newUpload(tenant: TestTenant) {
    const bytes = randomBytes(2 * partSize + 1234); // completion checks parts, not media
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: bytes.length } }));
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect(project.transfer.part_count).toBe(3);
    const upload = await api.db.selectFrom('uploads').selectAll().where('project_id', '=', project.id).executeTakeFirstOrThrow();
    return { id: project.id as string, upload, transfer: project.transfer, chunks: splitParts(bytes, partSize) };
  }

  const getProject = async (tenant: TestTenant, id: string) => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
  const complete = (tenant: TestTenant, id: string, body: unknown) => request(api.baseUrl, 'POST', `/v1/dubbing/projects/${id}/upload/complete`, { headers: bearer(tenant.key), body });

  /** Nothing a refused completion may change: the upload row, the project, the money, and (s3) the store's open upload. */
  async function expectStillOpen(tenant: TestTenant, project: { id: string; upload: { id: string; store_upload_id: string | null } }) {
    const upload = await api.db.selectFrom('uploads').select(['completed_at', 'completed_parts']).where('id', '=', project.upload.id).executeTakeFirstOrThrow();
    expect(upload).toEqual({ completed_at: null, completed_parts: null });
    const row = await api.db.selectFrom('projects').select(['status', 'phase', 'usage_state']).where('id', '=', project.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'awaiting_upload', phase: 'uploading', usage_state: 'pending_validation' });
    if (s3) {
      const open = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: blobKeys.source(project.id) }));
      expect(open.Uploads?.map((u) => u.UploadId)).toEqual([project.upload.store_upload_id]);
    }
  }

  it('resumes after a dropped part from what storage reports, then completes once and repeats safely', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await newUpload(tenant);
    const { chunks } = project;
    const first = await putPart(project.transfer.parts[0].url, chunks[0]!);
    expect(first.status).toBe(200);
    expect(first.etag).toBe(`"${md5(chunks[0]!)}"`);
    await putPartAndDropConnection(project.transfer.parts[1].url, chunks[1]!);

    const resumed = await getProject(tenant, project.id);
    expect(resumed.progress.message).toContain('1 of 3 parts received');
    // The list reads only the database: on s3 it cannot count parts, so it claims no count.
    const listed = (await request(api.baseUrl, 'GET', '/v1/dubbing/projects', { headers: bearer(tenant.key) })).body.data.find((p: any) => p.id === project.id);
    if (s3) expect(listed.progress.message).toContain('include_transfer=true');
    else expect(listed.progress.message).toContain('1 of 3 parts received');
    expect(resumed.transfer.parts.map((p: any) => [p.part_number, p.uploaded, p.etag])).toEqual([
      [1, true, md5(chunks[0]!)],
      [2, false, undefined],
      [3, false, undefined],
    ]);
    for (const part of resumed.transfer.parts.filter((p: any) => !p.uploaded)) {
      expect((await putPart(part.url, chunks[part.part_number - 1]!)).status).toBe(200);
    }
    // A second read sees the new parts at once (on s3 no row changed, so no cached view may hide them).
    const ready = await getProject(tenant, project.id);
    expect(ready.transfer.parts.map((p: any) => [p.uploaded, p.etag])).toEqual(chunks.map((c) => [true, md5(c)]));

    const parts = ready.transfer.parts.map((p: any) => ({ part_number: p.part_number, etag: p.etag }));
    const done = await complete(tenant, project.id, { parts });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id: project.id, status: 'validating', source: { type: 'upload', file_name: 'clip.mp4' } });
    const upload = await api.db.selectFrom('uploads').select(['completed_at', 'completed_parts']).where('id', '=', project.upload.id).executeTakeFirstOrThrow();
    expect(upload.completed_at).toBeInstanceOf(Date);
    expect(upload.completed_parts).toEqual(parts);
    expect((await api.db.selectFrom('projects').select('status').where('id', '=', project.id).executeTakeFirstOrThrow()).status).toBe('validating');
    if (driver === 's3') {
      // Joined in place by the store, not by the API.
      expect(await api.blobStore.stat(blobKeys.source(project.id))).toEqual({ sizeBytes: chunks.reduce((n, c) => n + c.length, 0) });
      expect(api.requests.filter((r) => r.includes('/v1/uploads/'))).toEqual([]);
    }

    // The same list again: the same answer. A different list: a conflict, nothing changed.
    const again = await complete(tenant, project.id, { parts });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(done.body.data);
    const other = await complete(tenant, project.id, { parts: parts.map((p: any, i: number) => (i === 0 ? { ...p, etag: 'f'.repeat(32) } : p)) });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ type: 'conflict_error', code: 'upload_already_completed' });
    expect((await api.db.selectFrom('uploads').select('completed_parts').where('id', '=', project.upload.id).executeTakeFirstOrThrow()).completed_parts).toEqual(parts);
  });

  it('refuses missing parts, wrong etags, bad order and unknown parts with upload_incomplete, changing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const project = await newUpload(tenant);
    const { chunks } = project;
    await putPart(project.transfer.parts[0].url, chunks[0]!);
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    const all = chunks.map((c, i) => ({ part_number: i + 1, etag: md5(c) }));

    const missing = await complete(tenant, project.id, { parts: all });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'upload_incomplete', param: 'parts' });
    expect(missing.body.error.message).toContain('not uploaded yet: parts 2, 3');

    for (const [i, part] of project.transfer.parts.slice(1).entries()) await putPart(part.url, chunks[i + 1]!);
    const cases: [unknown, string][] = [
      [all.map((p, i) => (i === 0 ? { ...p, etag: 'deadbeef' } : p)), 'etag does not match the uploaded part for part 1'],
      [[...all].reverse(), 'ascending'],
      [all.slice(1), 'missing from parts: 1'],
      [[...all, { part_number: 4, etag: 'x' }], 'this upload has 3 parts; no part 4'],
    ];
    for (const [parts, message] of cases) {
      const res = await complete(tenant, project.id, { parts });
      expect([message, res.status]).toEqual([message, 400]);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'upload_incomplete', param: 'parts' });
      expect(res.body.error.message).toContain(message);
    }
    // Malformed bodies are refused by the schema, naming the field.
    const malformed: [unknown, string, string][] = [
      [{}, 'missing_parameter', 'parts'],
      [{ parts: [] }, 'invalid_parameter', 'parts'],
      [{ parts: [{ part_number: 0, etag: 'x' }] }, 'invalid_parameter', 'parts[0].part_number'],
      [{ parts: [{ part_number: 1 }] }, 'missing_parameter', 'parts[0].etag'],
    ];
    for (const [body, code, param] of malformed) {
      const res = await complete(tenant, project.id, body);
      expect([param, res.status]).toEqual([param, 400]);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    }
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
    await expectStillOpen(tenant, project);
  });

  if (driver === 's3') {
    // ae776e7 signed only the host: the store took a PUT of any size (up to 5 GiB) into every
    // part URL, kept it until complete refused it, and then for a day.
    it("issue 26 item 11: a part URL takes only its own part's size: a PUT of another size is refused and stores nothing, the right size passes", async () => {
      const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      const project = await newUpload(tenant);
      const { chunks } = project;
      const [first, , last] = project.transfer.parts;
      const wrong = [
        [first.url, Buffer.concat([chunks[0]!, Buffer.from('x')])], // one byte more
        [first.url, chunks[0]!.subarray(1)], // one byte less
        [first.url, randomBytes(3 * partSize)], // far more
        [last.url, chunks[0]!], // a full part into the short last one
      ] as const;
      for (const [url, bytes] of wrong) {
        const res = await putPartReadingRefusal(url, bytes);
        expect({ size: bytes.length, status: res.status }).toEqual({ size: bytes.length, status: 403 });
        expect(res.body).toContain('SignatureDoesNotMatch');
      }
      // The size is a signed header of the URL.
      expect(new URL(first.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
      // A client that sends the body straight away is refused too: the 403, or a reset once the
      // store stops reading (see putPartReadingRefusal).
      const straight = await putPart(first.url, randomBytes(2 * partSize)).catch((err: Error) => ({ status: `reset: ${String((err.cause as Error | undefined)?.message ?? err.message)}` }));
      expect(String(straight.status)).toMatch(/^(403|reset: .*(ECONNRESET|EPIPE|other side closed))/);
      const stored = await s3!.client.send(new ListPartsCommand({ Bucket: s3!.bucket, Key: blobKeys.source(project.id), UploadId: project.upload.store_upload_id! }));
      expect(stored.Parts ?? []).toEqual([]);
      expect((await getProject(tenant, project.id)).transfer.parts.map((p: any) => p.uploaded)).toEqual([false, false, false]);
      await expectStillOpen(tenant, project);

      // Each part of its own size passes, and the upload completes.
      for (const part of project.transfer.parts) {
        const res = await putPart(part.url, chunks[part.part_number - 1]!);
        expect(res.status).toBe(200);
        expect(res.etag).toBe(`"${md5(chunks[part.part_number - 1]!)}"`);
      }
      const res = await complete(tenant, project.id, { parts: chunks.map((c, i) => ({ part_number: i + 1, etag: md5(c) })) });
      expect(res.status).toBe(200);
      const upload = await api.db.selectFrom('uploads').select(['completed_at']).where('id', '=', project.upload.id).executeTakeFirstOrThrow();
      expect(upload.completed_at).not.toBeNull();
    });

    it('refuses a part whose bytes do not match its Content-MD5, keeping the good copy', async () => {
      const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      const project = await newUpload(tenant);
      const url = project.transfer.parts[2].url;
      const good = project.chunks[2]!;
      expect((await putPart(url, good)).status).toBe(200);
      const damaged = await fetch(url, { method: 'PUT', body: randomBytes(good.length), headers: { 'content-md5': Buffer.from(md5(good), 'hex').toString('base64') } });
      expect(damaged.status).toBe(400);
      expect(await damaged.text()).toContain('BadDigest');
      expect((await getProject(tenant, project.id)).transfer.parts[2]).toMatchObject({ uploaded: true, etag: md5(good) });
    });

    it('finishes a completion whose database commit was lost after the store had completed the upload', async () => {
      const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      const project = await newUpload(tenant);
      const parts = [];
      for (const [i, part] of project.transfer.parts.entries()) {
        expect((await putPart(part.url, project.chunks[i]!)).status).toBe(200);
        parts.push({ part_number: part.part_number, etag: md5(project.chunks[i]!) });
      }
      // What an API process did before it died: the store's completion, and no commit.
      await api.uploads.complete(
        project.upload,
        parts,
        parts.map((p, i) => ({ ...p, size_bytes: project.chunks[i]!.length })),
      );
      const res = await complete(tenant, project.id, { parts });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('validating');
      // Another parts list cannot claim that completion.
      const tenant2 = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      const other = await newUpload(tenant2);
      const otherParts = [];
      for (const [i, part] of other.transfer.parts.entries()) {
        await putPart(part.url, other.chunks[i]!);
        otherParts.push({ part_number: part.part_number, etag: md5(other.chunks[i]!) });
      }
      await api.uploads.complete(
        other.upload,
        otherParts,
        otherParts.map((p, i) => ({ ...p, size_bytes: other.chunks[i]!.length })),
      );
      const wrong = await complete(tenant2, other.id, { parts: otherParts.map((p, i) => (i === 0 ? { ...p, etag: md5(Buffer.from('not it')) } : p)) });
      expect(wrong.status).toBe(409);
      expect(wrong.body.error).toMatchObject({ type: 'conflict_error', code: 'upload_expired' });
      await expect(api.db.selectFrom('uploads').select('completed_at').where('id', '=', other.upload.id).executeTakeFirstOrThrow()).resolves.toEqual({ completed_at: null });
    });

    it('never serves part bytes itself: the local part and file routes do not exist', async () => {
      const res = await request(api.baseUrl, 'PUT', '/v1/uploads/upl_x/parts/1?expires=1&signature=x', { rawBody: Buffer.from('x') });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'route_not_found' });
      expect((await request(api.baseUrl, 'GET', '/v1/files/projects/x/source?expires=1&signature=x')).status).toBe(404);
    });
  }
});
