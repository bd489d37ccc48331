import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, ListMultipartUploadsCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import type { UploadExpiryResult } from '../../src/activities/upload-expiry.activities';
import { getBalance } from '../../src/db/credits';
import { blobKeys } from '../../src/db/uploads';
import { parseSrt, parseVtt } from '../../src/publish/captions';
import { languageWorkflowId, projectWorkflowId } from '../../src/shared/workflow-ids';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, ffprobe, makeTempDir, removeTempDir, speak } from '../helpers/media-fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { STORAGE_DRIVERS, storageEnv, testS3Client, UPLOAD_SETUPS } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { md5, putPart, putPartAndDropConnection, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// The whole product on real parts: the Koa app over HTTP, PostgreSQL, the Temporal dev server, a
// worker, and the real engines dubbing a real video made here with espeak-ng and ffmpeg; once
// with the local storage driver and once with the s3 driver on a real S3-compatible server
// (versitygw), where parts go straight to the store and downloads come from it.

const CPS = 10;
const TARGETS = ['es_es', 'ca_es'];
const ENGLISH = 'Hello everyone and welcome to the kitchen. Today we cook rice with fresh vegetables. The water is hot and the house is quiet.';
const MiB = 1024 * 1024;

/** The journey's source video: a busy test pattern (so it spans several parts) with English speech. */
async function makeSourceVideo(dir: string, videoMiB: number | null): Promise<string> {
  const speech = await speak(ENGLISH, path.join(dir, 'speech.wav'));
  const seconds = (await ffprobe(speech)).durationSeconds + 1;
  const out = path.join(dir, 'source.mp4');
  const bitrate = videoMiB ? Math.round((videoMiB * 8 * MiB) / seconds) : null;
  const encoding = bitrate ? ['-vf', 'noise=alls=30:allf=t', '-b:v', String(bitrate), '-maxrate', String(bitrate), '-bufsize', String(bitrate / 4)] : [];
  await ffmpeg(['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${seconds}`, '-i', speech, '-c:v', 'libx264', '-preset', 'ultrafast', ...encoding, '-c:a', 'aac', '-shortest', out]);
  return out;
}

describe.each(STORAGE_DRIVERS)('on the %s storage driver', (driver) => {
  const { partSize: PART_SIZE, videoMiB } = UPLOAD_SETUPS[driver];
  let api: TestApi;
  let worker: TestWorker;
  let tenant: TestTenant;
  let dir: string;
  let video: Buffer;
  let projectId: string;
  const s3 = driver === 's3' ? testS3Client() : null;

  const get = (p: string) => request(api.baseUrl, 'GET', p, { headers: bearer(tenant.key) });
  /** Requests that reached the API for an upload part (on s3 there must be none). */
  const partRequestsSeen = () => api.requests.filter((r) => r.includes('/v1/uploads/'));

  beforeAll(async () => {
    dir = makeTempDir(`e2e-${driver}-`);
    video = readFileSync(await makeSourceVideo(dir, videoMiB));
    const env = { ...storageEnv(driver), UPLOAD_PART_SIZE_BYTES: String(PART_SIZE) };
    api = await startTestApi(env);
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env });
    tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    s3?.client.destroy();
    removeTempDir(dir);
  });

  // One customer journey in steps: each `it` continues from the state the one before left, so
  // they run in file order (jest's default; not meant for --randomize).
  describe('an upload project from create to dubbed deliverables', () => {
    it('creates the project awaiting its upload and holds the ceiling', async () => {
      expect(video.length).toBeGreaterThan(2 * PART_SIZE); // so the upload really has several parts
      const res = await request(api.baseUrl, 'POST', '/v1/dubbing/projects', {
        headers: { ...bearer(tenant.key), 'idempotency-key': `e2e-create-${driver}` },
        body: {
          name: 'Cooking rice',
          external_id: `ext-e2e-${driver}`,
          source_locale: 'en_us',
          target_locales: TARGETS,
          max_billable_seconds: 60,
          source: { type: 'upload', file_name: 'rice.mp4', size_bytes: video.length },
          publishing: { title: 'How to cook rice', description: 'A short lesson about rice and vegetables.' },
        },
      });
      expect(res.status).toBe(201);
      const data = res.body.data;
      projectId = data.id;
      expect(data).toMatchObject({
        name: 'Cooking rice',
        external_id: `ext-e2e-${driver}`,
        status: 'awaiting_upload',
        source_locale: 'en_us',
        target_locales: TARGETS,
        usage: { max_billable_seconds: 60, billable_seconds: null, charged_seconds: 0, state: 'pending_validation' },
        languages: [],
        progress: { phase: 'uploading', waiting_on: 'upload', can_advance_without_user: false },
      });
      expect(data.transfer.part_count).toBe(Math.ceil(video.length / PART_SIZE));
      expect(data.transfer.part_size_bytes).toBe(PART_SIZE);
      expect(data.transfer.parts.every((p: any) => p.uploaded === false)).toBe(true);

      const upload = await api.db.selectFrom('uploads').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
      const partUrl = new URL(data.transfer.parts[0].url);
      if (driver === 's3') {
        // A real multipart upload in the store, and presigned UploadPart URLs pointing at it.
        expect(upload.store_upload_id).toEqual(expect.any(String));
        expect(partUrl.origin).toBe(api.config.storage.s3!.endpoint);
        expect(partUrl.searchParams.get('uploadId')).toBe(upload.store_upload_id);
        expect(partUrl.searchParams.get('partNumber')).toBe('1');
        expect(partUrl.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
        const open = await s3!.client.send(new ListMultipartUploadsCommand({ Bucket: s3!.bucket, Prefix: blobKeys.source(projectId) }));
        expect(open.Uploads?.map((u) => u.UploadId)).toEqual([upload.store_upload_id]);
      } else {
        expect(upload.store_upload_id).toBeNull();
        expect(partUrl.origin).toBe(api.baseUrl);
      }

      const hold = 60 * TARGETS.length * CPS;
      expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 100_000, captured: 0, reserved: hold });
      const usage = await get('/v1/usage');
      expect(usage.body.data.credits).toEqual({ total: 100_000, reserved: hold, available: 100_000 - hold });
    });

    it('uploads parts, survives a dropped connection, and resumes from include_transfer', async () => {
      const parts = splitParts(video, PART_SIZE);
      const first = (await get(`/v1/dubbing/projects/${projectId}`)).body.data.transfer;
      for (const n of [1, 2]) {
        const res = await putPart(first.parts[n - 1].url, parts[n - 1]!);
        expect(res.status).toBe(200);
        // The storage's ETag: the part's MD5, from the API (local) or from the store itself (s3).
        expect(res.etag).toBe(`"${md5(parts[n - 1]!)}"`);
      }
      await putPartAndDropConnection(first.parts[2].url, parts[2]!);

      const resumed = (await get(`/v1/dubbing/projects/${projectId}?include_transfer=true`)).body.data;
      expect(resumed.status).toBe('awaiting_upload');
      expect(resumed.progress.message).toContain(`2 of ${first.part_count} parts received`);
      expect(resumed.transfer.parts.slice(0, 3).map((p: any) => [p.uploaded, p.etag])).toEqual([
        [true, md5(parts[0]!)],
        [true, md5(parts[1]!)],
        [false, undefined],
      ]);
      const rows = await api.db.selectFrom('upload_parts').select('part_number').where('upload_id', '=', resumed.transfer.upload_id).orderBy('part_number').execute();
      if (driver === 's3') {
        // The store is the record: the API saw no part, so it wrote no row; ListParts has two.
        expect(rows).toEqual([]);
        const upload = await api.db.selectFrom('uploads').select('store_upload_id').where('project_id', '=', projectId).executeTakeFirstOrThrow();
        const listed = await s3!.client.send(new ListPartsCommand({ Bucket: s3!.bucket, Key: blobKeys.source(projectId), UploadId: upload.store_upload_id! }));
        expect(listed.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
          [1, PART_SIZE],
          [2, PART_SIZE],
        ]);
      } else {
        expect(rows.map((r) => r.part_number)).toEqual([1, 2]);
      }

      for (const part of resumed.transfer.parts.filter((p: any) => !p.uploaded)) {
        expect((await putPart(part.url, parts[part.part_number - 1]!)).status).toBe(200);
      }
      const withoutTransfer = (await get(`/v1/dubbing/projects/${projectId}?include_transfer=false`)).body.data;
      expect(withoutTransfer.transfer).toBeUndefined();
      // On s3 no request for a part ever reached the API: the bytes went client → store.
      if (driver === 's3') expect(partRequestsSeen()).toEqual([]);
      else expect(partRequestsSeen().length).toBeGreaterThanOrEqual(parts.length);
    });

    it('completes the upload, validates, captures exactly, and starts one workflow per language', async () => {
      const transfer = (await get(`/v1/dubbing/projects/${projectId}`)).body.data.transfer;
      expect(transfer.parts.every((p: any) => p.uploaded)).toBe(true);
      const body = { parts: transfer.parts.map((p: any) => ({ part_number: p.part_number, etag: p.etag })) };
      const complete = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { headers: bearer(tenant.key), body });
      expect(complete.status).toBe(200);
      expect(complete.body.data).toEqual({ id: projectId, status: 'validating', source: { type: 'upload', file_name: 'rice.mp4' } });
      const again = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${projectId}/upload/complete`, { headers: bearer(tenant.key), body });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(projectId);
      const upload = await api.db.selectFrom('uploads').select(['completed_at', 'completed_parts']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
      expect(upload.completed_at).toBeInstanceOf(Date);
      expect(upload.completed_parts).toEqual(body.parts);
      if (driver === 's3') {
        // Completed in place: the source object is the parts joined, and no upload is left open.
        const head = await s3!.client.send(new HeadObjectCommand({ Bucket: s3!.bucket, Key: blobKeys.source(projectId) }));
        expect(head.ContentLength).toBe(video.length);
        const open = await s3!.client.send(new ListMultipartUploadsCommand({ Bucket: s3!.bucket, Prefix: blobKeys.source(projectId) }));
        expect(open.Uploads ?? []).toEqual([]);
      }

      const charged = await waitFor(
        'capture',
        async () => {
          const p = (await get(`/v1/dubbing/projects/${projectId}`)).body.data;
          return p.usage.state === 'charged' ? p : undefined;
        },
        60_000,
      );
      const duration = (await ffprobe(path.join(dir, 'source.mp4'))).durationSeconds;
      const billable = Math.ceil(duration);
      expect(charged.usage).toMatchObject({ billable_seconds: billable, charged_seconds: billable * TARGETS.length, state: 'charged' });
      expect(charged.source.duration_seconds).toBeCloseTo(duration, 1);

      const ledger = await api.db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', projectId).orderBy('id').execute();
      const hold = 60 * TARGETS.length * CPS;
      const capture = billable * TARGETS.length * CPS;
      expect(ledger.map((e) => [e.kind, e.amount])).toEqual([
        ['hold', hold],
        ['capture', capture],
        ['release', hold - capture],
      ]);
      expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 100_000, captured: capture, reserved: 0 });

      for (const locale of TARGETS) {
        const description = await waitFor(
          `language workflow ${locale}`,
          async () => {
            try {
              return await api.temporal.workflow.getHandle(languageWorkflowId(projectId, locale)).describe();
            } catch {
              return undefined;
            }
          },
          60_000,
        );
        expect(description.typedSearchAttributes.get({ name: 'Locale', type: 'KEYWORD' } as any)).toBe(locale);
      }
      const parent = await api.temporal.workflow.getHandle(projectWorkflowId(projectId)).describe();
      expect(parent.typedSearchAttributes.get({ name: 'ProjectId', type: 'KEYWORD' } as any)).toBe(projectId);
    }, 90_000);

    it('dubs every language and publishes checked deliverables', async () => {
      const done = await waitFor(
        'project completed',
        async () => {
          const p = (await get(`/v1/dubbing/projects/${projectId}`)).body.data;
          if (p.status === 'failed' || p.status === 'partially_completed') throw new Error(`project ended ${p.status}: ${JSON.stringify(p.languages.map((l: any) => l.failure))}`);
          return p.status === 'completed' ? p : undefined;
        },
        240_000,
        1000,
      );
      const duration = (await ffprobe(path.join(dir, 'source.mp4'))).durationSeconds;
      expect(done.progress).toMatchObject({ phase: 'completed', percent: 100 });

      for (const language of done.languages) {
        expect(language.status).toBe('completed');
        expect(language.deliverables.map((d: any) => `${d.type}/${d.format}`).sort()).toEqual([
          'audio/mp3',
          'audio/wav',
          'background_stem/wav',
          'dialog_stem/wav',
          'subtitles/srt',
          'subtitles/ttml',
          'subtitles/vtt',
          'thumbnail/png',
          'video/mp4',
        ]);
        expect(language.publishing.title).not.toBe('How to cook rice');
        expect(language.publishing.title.length).toBeGreaterThan(3);
        expect(language.publishing.description).not.toBe('A short lesson about rice and vegetables.');

        for (const format of ['mp3', 'wav']) {
          const redirect = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}/download?locale=${language.locale}&type=audio&format=${format}`, { headers: bearer(tenant.key) });
          expect(redirect.status).toBe(302);
          const location = new URL(redirect.headers.get('location')!);
          // A presigned GET of the store on s3 (the bytes never pass the API); the API's signed file route on local.
          expect(location.origin).toBe(driver === 's3' ? api.config.storage.s3!.endpoint : api.baseUrl);
          if (driver === 's3') expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
          const file = path.join(dir, `${language.locale}.${format}`);
          const audio = await fetch(location);
          expect(audio.status).toBe(200);
          expect(audio.headers.get('content-disposition')).toBe(`attachment; filename="Cooking rice.${language.locale}.${format}"`);
          expect(audio.headers.get('content-type')).toBe(format === 'mp3' ? 'audio/mpeg' : 'audio/wav');
          writeFileSync(file, Buffer.from(await audio.arrayBuffer()));
          const probe = await ffprobe(file);
          expect(Math.abs(probe.durationSeconds - duration) / duration).toBeLessThan(0.05);
        }

        const vtt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}/download?locale=${language.locale}&type=subtitles`, { headers: bearer(tenant.key) });
        expect(vtt.status).toBe(200);
        expect(vtt.headers.get('content-type')).toContain('text/vtt');
        expect(vtt.headers.get('content-disposition')).toBe(`inline; filename="Cooking rice.${language.locale}.vtt"`);
        expect(String(vtt.body).startsWith('WEBVTT')).toBe(true);
        const srt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}/download?locale=${language.locale}&type=subtitles&format=srt`, { headers: bearer(tenant.key) });
        expect(srt.headers.get('content-type')).toContain('application/x-subrip');
        for (const cues of [parseVtt(String(vtt.body)), parseSrt(String(srt.body))]) {
          expect(cues.length).toBeGreaterThan(0);
          for (const cue of cues) {
            expect(cue.startSeconds).toBeGreaterThanOrEqual(0);
            expect(cue.endSeconds).toBeLessThanOrEqual(duration + 0.01);
          }
          const text = cues
            .map((c) => c.text)
            .join(' ')
            .toLowerCase();
          // Not the English source: the transcript's English words are translated away.
          expect(text).not.toMatch(/\b(the|and|with|today)\b/);
        }

        const thumb = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${projectId}/download?locale=${language.locale}&type=thumbnail`, { headers: bearer(tenant.key) });
        expect(thumb.status).toBe(302);
        const thumbnail = await fetch(thumb.headers.get('location')!);
        expect(thumbnail.headers.get('content-disposition')).toBe(`attachment; filename="Cooking rice.${language.locale}.png"`);
        const png = Buffer.from(await thumbnail.arrayBuffer());
        expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      }

      // Every deliverable row names a blob the driver's store really holds.
      const deliverables = await api.db.selectFrom('deliverables').select(['storage_key', 'size_bytes']).where('project_id', '=', projectId).execute();
      expect(deliverables).toHaveLength(9 * TARGETS.length);
      for (const row of deliverables) expect(await api.blobStore.stat(row.storage_key)).toEqual({ sizeBytes: Number(row.size_bytes) });

      // Each language's quality figures are written with its deliverables (issue 11's goals).
      const rows = await api.db.selectFrom('project_languages').select(['locale', 'dub_quality', 'drift_seconds']).where('project_id', '=', projectId).orderBy('locale').execute();
      expect(rows.map((r) => r.locale)).toEqual([...TARGETS].sort());
      for (const { dub_quality: quality, drift_seconds: drift } of rows) {
        expect(quality).not.toBeNull();
        expect(quality!.sentences).toBeGreaterThan(0);
        expect(quality!.maxTempo).toBeGreaterThanOrEqual(1);
        expect(quality!.maxTempo).toBeLessThanOrEqual(1.3);
        expect(quality!.totalDriftSeconds).toBeCloseTo(drift!, 2);
        expect(Math.abs(quality!.lengthRatio - 1)).toBeLessThanOrEqual(0.05);
        expect(quality!.cuesOutsideClips).toBe(0);
        // Never two voices or two captions at once (docs/recognition.md#timing).
        expect(quality!.overlaps).toBe(0);
        expect(quality!.maxStartOffsetMs).toBeGreaterThanOrEqual(0);
        expect(quality!.maxStartOffsetMs).toBeLessThan(500);
      }
      if (driver === 's3') expect(partRequestsSeen()).toEqual([]);
    }, 300_000);
  });

  describe('an abandoned upload', () => {
    it('is expired by the upload-expiry workflow, which releases the hold and drops its parts from storage', async () => {
      const owner = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
      const size = PART_SIZE + 1000;
      const created = await createProject(api, owner, projectBody({ source: { type: 'upload', file_name: 'gone.mp4', size_bytes: size } }));
      expect(created.status).toBe(201);
      const abandoned = created.body.data;
      expect((await putPart(abandoned.transfer.parts[0].url, video.subarray(0, PART_SIZE))).status).toBe(200);
      const upload = await api.db.selectFrom('uploads').selectAll().where('project_id', '=', abandoned.id).executeTakeFirstOrThrow();
      await api.db
        .updateTable('uploads')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', upload.id)
        .execute();

      const result: UploadExpiryResult = await api.temporal.workflow.execute('uploadExpiryWorkflow', { taskQueue: api.config.temporal.taskQueue, workflowId: `upload-expiry-e2e-${abandoned.id}` });
      expect(result.expired).toBeGreaterThanOrEqual(1);
      expect(result.failed).not.toContain(abandoned.id);
      const failed = (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${abandoned.id}`, { headers: bearer(owner.key) })).body.data;
      expect(failed).toMatchObject({ status: 'failed', failure: { code: 'upload_expired' }, usage: { state: 'released', charged_seconds: 0 } });
      expect(await getBalance(api.db, owner.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });

      if (driver === 's3') {
        // Aborted in the store: it lists no multipart upload for the project, and its parts are gone.
        const open = await s3!.client.send(new ListMultipartUploadsCommand({ Bucket: s3!.bucket, Prefix: blobKeys.source(abandoned.id) }));
        expect(open.Uploads ?? []).toEqual([]);
        await expect(s3!.client.send(new ListPartsCommand({ Bucket: s3!.bucket, Key: blobKeys.source(abandoned.id), UploadId: upload.store_upload_id! }))).rejects.toMatchObject({
          name: 'NoSuchUpload',
        });
      } else {
        const rows = await api.db.selectFrom('upload_parts').select('storage_key').where('upload_id', '=', upload.id).execute();
        expect(rows).toHaveLength(1);
        expect(await api.blobStore.stat(rows[0]!.storage_key!)).toBeNull();
      }
      // A late part or completion changes nothing.
      const late = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${abandoned.id}/upload/complete`, {
        headers: bearer(owner.key),
        body: { parts: [{ part_number: 1, etag: md5(video.subarray(0, PART_SIZE)) }] },
      });
      expect(late.status).toBe(409);
      expect(late.body.error).toMatchObject({ type: 'conflict_error', code: 'upload_expired' });
    }, 60_000);
  });
});
