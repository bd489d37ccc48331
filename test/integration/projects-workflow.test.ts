import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { UploadExpiryResult } from '../../src/activities/upload-expiry.activities';
import { getBalance } from '../../src/db/credits';
import { ensureUploadExpirySchedule, UPLOAD_EXPIRY_SCHEDULE_ID } from '../../src/temporal/ensure-upload-expiry-schedule';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, makeTone, makeVideo, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, workspaceRowCounts } from '../helpers/projects';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { putPart, splitParts } from '../helpers/upload-client';
import { waitFor } from '../helpers/wait-for';

// How a project ends when it must not be charged: every path releases the whole hold.

let api: TestApi;
let worker: TestWorker;
let dir: string;
let clip: Buffer;
const CPS = 10;

beforeAll(async () => {
  dir = makeTempDir('projects-wf-');
  clip = await spokenClip(dir, 'This clip is five seconds long or a little more than that.', 5.5);
  api = await startTestApi({ UPLOAD_PART_SIZE_BYTES: String(64 * 1024) });
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
}, 60_000);
afterAll(async () => {
  await worker.stop();
  await api.close();
  removeTempDir(dir);
});

/** Workflow ids the visibility query finds, once `expected` of them show (visibility lags a little). */
async function workflowsMatching(query: string, expected = 1): Promise<string[]> {
  const list = async () => {
    const ids: string[] = [];
    for await (const execution of api.temporal.workflow.list({ query })) ids.push(execution.workflowId);
    return ids.sort();
  };
  if (expected === 0) return list();
  return waitFor(
    `workflows matching ${query}`,
    async () => {
      const ids = await list();
      return ids.length >= expected ? ids : undefined;
    },
    20_000,
    250,
  );
}

const getProject = async (tenant: TestTenant, id: string) => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
const waitForStatus = (tenant: TestTenant, id: string, status: string) =>
  waitFor(
    `project ${status}`,
    async () => {
      const project = await getProject(tenant, id);
      return project.status === status ? project : undefined;
    },
    60_000,
  );

describe('projects that end without a charge', () => {
  it('fails a YouTube source as source_unavailable and releases the hold', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const created = await createProject(api, tenant, projectBody({ source: { type: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } }));
    expect(created.status).toBe(201);
    const failed = await waitForStatus(tenant, created.body.data.id, 'failed');
    expect(failed.failure.code).toBe('source_unavailable');
    expect(failed.usage).toMatchObject({ state: 'released', charged_seconds: 0 });
    expect(failed.progress).toMatchObject({ phase: 'failed', waiting_on: 'caller', can_advance_without_user: false });
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  });

  it('fails a file that is not media as invalid_media and releases the hold', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const bytes = Buffer.from('this is a text file pretending to be a video\n'.repeat(100));
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'notes.mp4', size_bytes: bytes.length } }));
    expect((await uploadAndComplete(api, tenant, created.body.data, bytes)).status).toBe(200);
    const failed = await waitForStatus(tenant, created.body.data.id, 'failed');
    expect(failed.failure).toMatchObject({ code: 'invalid_media' });
    expect(failed.failure.message).toContain('notes.mp4');
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  });

  it('stops a source longer than max_billable_seconds before charging anything', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const created = await createProject(
      api,
      tenant,
      projectBody({ max_billable_seconds: 3, target_locales: ['es_es', 'ca_es'], source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }),
    );
    expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
    const failed = await waitForStatus(tenant, created.body.data.id, 'failed');
    expect(failed.failure.code).toBe('max_billable_seconds_exceeded');
    expect(failed.usage).toMatchObject({ state: 'limit_exceeded', billable_seconds: 6, charged_seconds: 0, max_billable_seconds: 3 });
    expect(failed.languages).toEqual([]);
    const kinds = await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', created.body.data.id).orderBy('id').execute();
    expect(kinds).toEqual([
      { kind: 'hold', amount: 60 },
      { kind: 'release', amount: 60 },
    ]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  });
});

describe('abandoned uploads', () => {
  const runUploadExpiry = (workflowId: string): Promise<UploadExpiryResult> => api.temporal.workflow.execute('uploadExpiryWorkflow', { taskQueue: api.config.temporal.taskQueue, workflowId });

  it('are expired by the upload-expiry workflow, releasing the hold; a later complete is refused', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const abandoned = (await createProject(api, tenant, projectBody())).body.data;
    const onTime = (await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length } }))).body.data;
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 1200 });
    await api.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', abandoned.id)
      .execute();

    const result = await runUploadExpiry(`upload-expiry-test-${abandoned.id}`);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    const failed = await getProject(tenant, abandoned.id);
    expect(failed).toMatchObject({ status: 'failed', failure: { code: 'upload_expired' }, usage: { state: 'released', charged_seconds: 0 } });
    expect((await getProject(tenant, onTime.id)).status).toBe('awaiting_upload'); // its window is open
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 600 });
    const ledger = await api.db.selectFrom('credit_ledger').select(['kind', 'amount', 'reference']).where('project_id', '=', abandoned.id).orderBy('id').execute();
    expect(ledger).toEqual([
      { kind: 'hold', amount: 600, reference: `${abandoned.id}:hold` },
      { kind: 'release', amount: 600, reference: `${abandoned.id}:release` },
    ]);

    const late = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${abandoned.id}/upload/complete`, { headers: bearer(tenant.key), body: { parts: [{ part_number: 1, etag: 'x' }] } });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ type: 'conflict_error', code: 'upload_expired' });
    // The on-time project still goes on: validated and charged.
    expect((await uploadAndComplete(api, tenant, onTime, clip)).status).toBe(200);
    const charged = await waitFor(
      'the on-time project to be charged',
      async () => {
        const project = await getProject(tenant, onTime.id);
        return project.usage.state === 'charged' ? project : undefined;
      },
      120_000,
    );
    expect(charged.usage).toMatchObject({ billable_seconds: 6, charged_seconds: 6 });
  }, 180_000);

  it('settles the other abandoned projects when one of them cannot be settled, and retries that one next run', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const broken = (await createProject(api, tenant, projectBody())).body.data;
    const fine = (await createProject(api, tenant, projectBody())).body.data;
    await api.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 2000) })
      .where('project_id', '=', broken.id)
      .execute();
    await api.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', fine.id)
      .execute();
    // A project pointing at a hold the ledger does not know: releasing it throws.
    await api.db
      .updateTable('projects')
      .set({ hold_reference: `${broken.id}:no-such-hold` })
      .where('id', '=', broken.id)
      .execute();

    const first = await runUploadExpiry(`upload-expiry-broken-${broken.id}`);
    expect(first.failed).toContain(broken.id);
    expect((await getProject(tenant, fine.id)).status).toBe('failed');
    expect((await getProject(tenant, broken.id)).status).toBe('awaiting_upload');
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 600 });

    // Once the row is repaired, the next run settles it.
    await api.db
      .updateTable('projects')
      .set({ hold_reference: `${broken.id}:hold` })
      .where('id', '=', broken.id)
      .execute();
    const second = await runUploadExpiry(`upload-expiry-repaired-${broken.id}`);
    expect(second.failed).not.toContain(broken.id);
    expect((await getProject(tenant, broken.id)).failure.code).toBe('upload_expired');
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  });

  it('has a schedule that the worker creates once', async () => {
    const client = api.temporal;
    await ensureUploadExpirySchedule(client, api.config.temporal.taskQueue);
    await ensureUploadExpirySchedule(client, api.config.temporal.taskQueue); // idempotent
    const schedule = await client.schedule.getHandle(UPLOAD_EXPIRY_SCHEDULE_ID).describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'uploadExpiryWorkflow' });
    expect(schedule.spec.intervals?.[0]?.every).toBe(300_000);
  });
});

describe('sources without speech', () => {
  it('item 19: fails a video with no audio track as invalid_media, releasing the hold and charging nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const silent = readFileSync(await makeVideo(path.join(dir, 'silent.mp4'), 3)); // video only, no audio stream
    const created = await createProject(api, tenant, projectBody({ name: 'Silent film', source: { type: 'upload', file_name: 'silent.mp4', size_bytes: silent.length } }));
    expect((await uploadAndComplete(api, tenant, created.body.data, silent)).status).toBe(200);
    const failed = await waitForStatus(tenant, created.body.data.id, 'failed');
    expect(failed.failure).toEqual({ code: 'invalid_media', message: 'silent.mp4 has no audio track; there is no speech to dub.' });
    expect(failed.usage).toMatchObject({ state: 'released', billable_seconds: null, charged_seconds: 0 });
    expect(failed.languages).toEqual([]);
    const ledger = await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', created.body.data.id).orderBy('id').execute();
    expect(ledger).toEqual([
      { kind: 'hold', amount: 600 },
      { kind: 'release', amount: 600 },
    ]);
    expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
    // The workflow itself is Completed (the money is settled); only its search attributes say failed.
    expect(await workflowsMatching(`ProjectId = "${created.body.data.id}" AND ProjectStatus = "failed" AND FailureCode = "invalid_media"`)).toEqual([`project/${created.body.data.id}`]);
  }, 90_000);

  it('still completes audio without speech, with silent audio and captions that hold no cues', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const quiet = await makeTone(path.join(dir, 'quiet.wav'), 3, 20); // a 20 Hz hum: audio, but no words
    const film = readFileSync(await makeVideo(path.join(dir, 'quiet.mp4'), 3, quiet));
    const created = await createProject(api, tenant, projectBody({ name: 'Quiet film', source: { type: 'upload', file_name: 'quiet.mp4', size_bytes: film.length } }));
    expect((await uploadAndComplete(api, tenant, created.body.data, film)).status).toBe(200);
    const done = await waitForStatus(tenant, created.body.data.id, 'completed');
    expect(done.languages[0].deliverables).toHaveLength(9); // the dubbed video, the TTML captions and the two stems included (docs/video.md, docs/captions.md, docs/audio.md#stems)
    expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 3, charged_seconds: 3 });
    const transcript = await api.db.selectFrom('transcript_segments').selectAll().where('project_id', '=', created.body.data.id).execute();
    expect(transcript).toEqual([]);
    const vtt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${created.body.data.id}/download?locale=es_es&type=subtitles`, { headers: bearer(tenant.key) });
    expect(vtt.status).toBe(200);
    expect(vtt.body).toBe('WEBVTT\n\n');
    const id = created.body.data.id;
    expect(await workflowsMatching(`ProjectId = "${id}" AND ProjectStatus = "completed"`)).toEqual([`project/${id}`]);
    expect(await workflowsMatching(`ProjectId = "${id}" AND LanguageStatus = "completed" AND Locale = "es_es"`)).toEqual([`project/${id}/lang/es_es`]);
    expect(await workflowsMatching(`ProjectId = "${id}" AND FailureCode IS NOT NULL`, 0)).toEqual([]);
  }, 90_000);
});

describe('POST /upload/complete', () => {
  it('refuses missing parts, wrong etags and bad order with upload_incomplete, changing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const bytes = randomBytes(200_000); // completion checks parts, not media
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: bytes.length } }));
    const project = created.body.data;
    expect(project.transfer.part_count).toBe(4);
    const parts = splitParts(bytes, project.transfer.part_size_bytes);
    const first = await putPart(project.transfer.parts[0].url, parts[0]!);
    const complete = (body: unknown) => request(api.baseUrl, 'POST', `/v1/dubbing/projects/${project.id}/upload/complete`, { headers: bearer(tenant.key), body });
    const before = await workspaceRowCounts(api, tenant.workspace.id);

    const missing = await complete({ parts: [{ part_number: 1, etag: first.etag }] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'upload_incomplete', param: 'parts' });
    expect(missing.body.error.message).toContain('not uploaded yet: part');

    for (const part of project.transfer.parts.slice(1)) await putPart(part.url, parts[part.part_number - 1]!);
    const all = (await getProject(tenant, project.id)).transfer.parts.map((p: any) => ({ part_number: p.part_number, etag: p.etag }));
    const wrongEtag = await complete({ parts: all.map((p: any, i: number) => (i === 0 ? { ...p, etag: 'deadbeef' } : p)) });
    expect(wrongEtag.body.error.code).toBe('upload_incomplete');
    expect(wrongEtag.body.error.message).toContain('etag does not match the uploaded part for part 1');
    const reversed = await complete({ parts: [...all].reverse() });
    expect(reversed.body.error.message).toContain('ascending');
    const notListed = await complete({ parts: all.slice(1) });
    expect(notListed.body.error.message).toContain('missing from parts: 1');

    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
    expect((await getProject(tenant, project.id)).status).toBe('awaiting_upload');
  });

  it('refuses a project whose source is not an upload', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000 });
    const created = await createProject(api, tenant, projectBody({ source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' } }));
    const res = await request(api.baseUrl, 'POST', `/v1/dubbing/projects/${created.body.data.id}/upload/complete`, { headers: bearer(tenant.key), body: { parts: [{ part_number: 1, etag: 'x' }] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'project_id' });
  });
});
