import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createProjectActivities } from '../../src/activities/project.activities';
import { createLocalEngines } from '../../src/engines';
import { listLanguageSegments } from '../../src/db/language-segments';
import { listSourceSegments } from '../../src/db/source-segments';
import { parseVtt } from '../../src/publish/captions';
import { sourceKeys } from '../../src/shared/source-keys';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, ffprobe, makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { STORAGE_DRIVERS, storageEnv, type StorageDriver } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// A preview of a range (docs/previews.md) on the real stack: the API, a real worker with the real
// engines, PostgreSQL, Temporal and both storage drivers (the whole source is copied aside, then
// the cut replaces it). A 20 s video previewed from 5 s to 12 s is dubbed and charged
// as a 7 s video: its mix, MP3 and MP4 last 7 s, its segments and captions are timed from the
// range's start, and a supplied script is clipped to the range. A range past the source's end
// fails `invalid_range` with nothing charged; a bad range is a named 400 that writes nothing.

const CPS = 10;
const SECONDS = 20;
const RANGE = { start_seconds: 5, end_seconds: 12 };
const LENGTH = RANGE.end_seconds - RANGE.start_seconds;
const suite = { dir: '', api: undefined as unknown as TestApi };

/** In the whole source's time: the first ends before the range, the second and last straddle its ends. */
const SCRIPT = [
  { start_seconds: 1.0, end_seconds: 3.0, text: 'Before the preview.' },
  { start_seconds: 4.0, end_seconds: 6.0, text: 'Hello there.' },
  { start_seconds: 8.0, end_seconds: 10.0, text: 'The house is quiet.' },
  { start_seconds: 10.5, end_seconds: 12.5, text: 'See you.' },
  { start_seconds: 14.0, end_seconds: 16.0, text: 'After the preview.' },
];
const LINES = [
  { start_seconds: 1.0, end_seconds: 3.0, text: 'Antes del avance.' },
  { start_seconds: 4.0, end_seconds: 6.0, text: 'Hola.' },
  { start_seconds: 8.0, end_seconds: 10.0, text: 'La casa está tranquila.' },
  { start_seconds: 10.5, end_seconds: 12.5, text: 'Hasta luego.' },
  { start_seconds: 14.0, end_seconds: 16.0, text: 'Después del avance.' },
];
/** What the preview keeps: clipped to 5–12 s and counted from 5 s. */
const KEPT = [
  { start_seconds: 0, end_seconds: 1, text: 'Hello there.' },
  { start_seconds: 3, end_seconds: 5, text: 'The house is quiet.' },
  { start_seconds: 5.5, end_seconds: 7, text: 'See you.' },
];

/**
 * A tiny 160×90 video of SECONDS whose sound is a tone of 220 Hz before the range, 440 Hz in it and
 * 880 Hz after: which of them a file plays tells where in the source it was cut (the script is
 * supplied: nothing is recognized).
 */
async function makeSource(file: string): Promise<Buffer> {
  // Commas escaped: the expression is one filter option.
  const hz = `if(lt(t\\,${RANGE.start_seconds})\\,220\\,if(lt(t\\,${RANGE.end_seconds})\\,440\\,880))`;
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `color=c=blue:s=160x90:r=25:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `aevalsrc=0.3*sin(2*PI*${hz}*t):s=48000:d=${SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', String(SECONDS), file],
  ]);
  return readFileSync(file);
}

/** The frequency of a steady tone, from its zero crossings over [from, to) seconds of 16 kHz mono samples. */
function toneHz(samples: Int16Array, from: number, to: number): number {
  let crossings = 0;
  for (let i = Math.floor(from * 16_000) + 1; i < Math.floor(to * 16_000); i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return crossings / 2 / (to - from);
}

/** A deliverable's file, fetched through the download endpoint (and the signed URL it redirects to). */
async function download(tenant: TestTenant, id: string, type: string, format: string): Promise<{ file: string; name: string | null }> {
  const res = await request(suite.api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=${type}&format=${format}`, { headers: bearer(tenant.key) });
  const file = path.join(suite.dir, `${id}.${format}`);
  if (type === 'subtitles') {
    expect(res.status).toBe(200);
    writeFileSync(file, String(res.body));
    return { file, name: res.headers.get('content-disposition') };
  }
  expect(res.status).toBe(302);
  const signed = await fetch(res.headers.get('location')!);
  expect(signed.status).toBe(200);
  writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
  return { file, name: signed.headers.get('content-disposition') };
}

let clip: Buffer;
beforeAll(async () => {
  suite.dir = makeTempDir('range-preview');
  clip = await makeSource(path.join(suite.dir, 'source.mp4'));
}, 60_000);
afterAll(() => removeTempDir(suite.dir));

describe.each(STORAGE_DRIVERS)('a preview of a range on the %s driver', (driver: StorageDriver) => {
  let tenant: TestTenant;
  let worker: TestWorker;
  const ids = { preview: '', beyond: '' };

  beforeAll(async () => {
    suite.api = await startTestApi(storageEnv(driver));
    worker = await startTestWorker(suite.api.db, { taskQueue: suite.api.config.temporal.taskQueue, env: storageEnv(driver) });
    tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await suite.api?.close();
  });

  it('refuses a bad range, or a script with nothing in it, with a named 400 and writes nothing', async () => {
    const before = await workspaceRowCounts(suite.api, tenant.workspace.id);
    const refusals: [Record<string, unknown>, number, string, string][] = [
      [{ range: { start_seconds: -1, end_seconds: 5 } }, 400, 'invalid_parameter', 'range.start_seconds'],
      [{ range: { start_seconds: 5, end_seconds: 5 } }, 400, 'invalid_parameter', 'range.end_seconds'],
      [{ range: { start_seconds: 9, end_seconds: 4 } }, 400, 'invalid_parameter', 'range.end_seconds'],
      // Shorter than a second: billed whole seconds, at least one, it would be charged for time it does not have.
      [{ range: { start_seconds: 5, end_seconds: 5.5 } }, 400, 'invalid_parameter', 'range.end_seconds'],
      [{ range: { start_seconds: 'five', end_seconds: 12 } }, 400, 'invalid_parameter', 'range.start_seconds'],
      [{ range: { start_seconds: 5, end_seconds: 1e9 } }, 400, 'invalid_parameter', 'range.end_seconds'],
      [{ range: { start_seconds: 5 } }, 400, 'missing_parameter', 'range.end_seconds'],
      [{ range: RANGE, transcript: { format: 'json', content: JSON.stringify([SCRIPT[0], SCRIPT[4]]) } }, 400, 'invalid_transcript', 'transcript'],
      [
        { range: RANGE, transcript: { format: 'json', content: JSON.stringify(SCRIPT) }, translations: { es_es: { format: 'json', content: JSON.stringify([LINES[0]]) } } },
        400,
        'invalid_transcript',
        'translations.es_es',
      ],
    ];
    for (const [extra, status, code, param] of refusals) {
      const res = await createProject(suite.api, tenant, projectBody(extra));
      expect([res.status, res.body.error?.code, res.body.error?.param]).toEqual([status, code, param]);
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
    expect(await workspaceRowCounts(suite.api, tenant.workspace.id)).toEqual(before);
  });

  it('dubs only the range, charged for its 7 s; a range past the end fails invalid_range, nothing charged', async () => {
    const before = await workspaceRowCounts(suite.api, tenant.workspace.id);
    const source = { type: 'upload', file_name: 'source.mp4', size_bytes: clip.length };
    const preview = await createProject(
      suite.api,
      tenant,
      projectBody({
        name: 'Range',
        source,
        range: RANGE,
        transcript: { format: 'json', content: JSON.stringify(SCRIPT) },
        translations: { es_es: { format: 'json', content: JSON.stringify(LINES) } },
      }),
    );
    expect(preview.status).toBe(201);
    expect(preview.body.data).toMatchObject({ range: RANGE, preview: true });
    const beyond = await createProject(suite.api, tenant, projectBody({ name: 'Beyond', source, range: { start_seconds: 15, end_seconds: 25 } }));
    expect(beyond.status).toBe(201);
    ids.preview = preview.body.data.id;
    ids.beyond = beyond.body.data.id;
    // The supplied transcript, as the preview hears it: clipped to the range, counted from its start.
    expect((await listSourceSegments(suite.api.db, ids.preview)).map((s) => ({ start_seconds: s.start_seconds, end_seconds: s.end_seconds, text: s.text }))).toEqual(KEPT);
    for (const created of [preview, beyond]) expect((await uploadAndComplete(suite.api, tenant, created.body.data, clip)).status).toBe(200);

    const failed = await waitForProjectView(suite.api, tenant, ids.beyond, 'the range past the end to fail', (p) => p.status !== 'validating', 120_000);
    expect(failed).toMatchObject({ status: 'failed', usage: { state: 'released', billable_seconds: null, charged_seconds: 0 }, range: { start_seconds: 15, end_seconds: 25 }, preview: true });
    expect(failed.failure.code).toBe('invalid_range');
    expect(failed.failure.message).toMatch(/20\.0\d s/);

    const done = await waitForProjectView(suite.api, tenant, ids.preview, 'the preview', (p) => p.status === 'completed' || p.status === 'failed', 240_000);
    expect(done).toMatchObject({
      status: 'completed',
      range: RANGE,
      preview: true,
      source: { duration_seconds: LENGTH },
      usage: { billable_seconds: LENGTH, charged_seconds: LENGTH, state: 'charged' },
    });
    // The whole source kept aside as uploaded; the project's source is the cut.
    expect(await suite.api.blobStore.stat(sourceKeys.fullMedia(ids.preview))).toEqual({ sizeBytes: clip.length });
    const cut = await ffprobe(await suite.api.blobStore.toLocalFile(sourceKeys.media(ids.preview), suite.dir));
    expect(Math.abs(cut.durationSeconds - LENGTH)).toBeLessThan(0.05);
    // Charged 7 s × 10 credits, once; both holds released.
    const after = await workspaceRowCounts(suite.api, tenant.workspace.id);
    expect(Number(after.balance.captured) - Number(before.balance.captured)).toBe(LENGTH * CPS);
    expect(Number(after.balance.reserved)).toBe(0);
    expect(Number(after.balance.granted)).toBe(Number(before.balance.granted));
    const captures = await suite.api.db.selectFrom('credit_ledger').select(['reference', 'amount']).where('reference', 'like', `${ids.preview}:capture%`).execute();
    expect(captures.map((c) => Number(c.amount))).toEqual([LENGTH * CPS]);
    expect(await suite.api.db.selectFrom('credit_ledger').select('reference').where('reference', 'like', `${ids.beyond}:capture%`).execute()).toEqual([]);
  }, 400_000);

  it("the preview's files last the range, its lines and captions lie within it, its downloads say preview", async () => {
    const tolerance = 0.1;
    for (const format of ['wav', 'mp3'] as const) {
      const { file, name } = await download(tenant, ids.preview, 'audio', format);
      const seconds = (await ffprobe(file)).durationSeconds;
      console.log(`${driver}: preview ${format}: ${seconds.toFixed(3)} s`);
      expect(Math.abs(seconds - LENGTH)).toBeLessThan(tolerance);
      expect(name).toContain(`Range (preview 5-12s).es_es.${format}`);
    }
    const video = await download(tenant, ids.preview, 'video', 'mp4');
    const probed = await ffprobe(video.file);
    expect(Math.abs(probed.durationSeconds - LENGTH)).toBeLessThan(0.15);
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 160, height: 90 });
    // Its original track (the second) is the source's 5–12 s: the 440 Hz tone from start to end.
    const original = await ffmpeg(['-i', video.file, '-map', '0:a:1', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1']);
    const samples = new Int16Array(original.buffer, original.byteOffset, Math.floor(original.length / 2));
    const [first, last] = [toneHz(samples, 0.05, 1), toneHz(samples, LENGTH - 1, LENGTH - 0.05)];
    console.log(`${driver}: preview MP4 ${probed.durationSeconds.toFixed(3)} s; its original track plays ${first.toFixed(0)} Hz in its first second, ${last.toFixed(0)} Hz in its last`);
    for (const hz of [first, last]) expect(Math.abs(hz - 440)).toBeLessThan(10);

    const captions = await download(tenant, ids.preview, 'subtitles', 'vtt');
    expect(captions.name).toContain('Range (preview 5-12s).es_es.vtt');
    const cues = parseVtt(readFileSync(captions.file, 'utf8'));
    expect(cues.length).toBeGreaterThan(0);
    for (const cue of cues) {
      expect(cue.startSeconds).toBeGreaterThanOrEqual(0);
      expect(cue.endSeconds).toBeLessThanOrEqual(LENGTH + 0.01);
    }
    // The supplied lines, clipped and moved like the transcript, placed within the range.
    const lines = await listLanguageSegments(suite.api.db, ids.preview, 'es_es');
    expect(lines.map((l) => l.text)).toEqual(['Hola.', 'La casa está tranquila.', 'Hasta luego.']);
    for (const line of lines) {
      expect(line.placed_start_seconds!).toBeGreaterThanOrEqual(0);
      expect(line.placed_end_seconds!).toBeLessThanOrEqual(LENGTH + 0.01);
    }
  });
});

describe('a retried cut', () => {
  // No worker on this API's task queue: the project's workflow never runs, and the source step is
  // run here, by hand, as a retry would run it again.
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('cuts the same range from the whole source again, whether the source is the earlier cut or the whole file again', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: CPS });
    const created = await createProject(api, tenant, projectBody({ source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' }, range: RANGE }));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await api.blobStore.put(sourceKeys.media(id), Readable.from([clip]));
    const activities = createProjectActivities({ db: api.db, blobStore: api.blobStore, uploads: api.uploads, engines: createLocalEngines(), webhooks: { publicBaseUrl: 'http://localhost' } });
    const prepare = () => new MockActivityEnvironment().run(activities.prepareSource, id);
    const sourceSeconds = async () => (await ffprobe(await api.blobStore.toLocalFile(sourceKeys.media(id), suite.dir))).durationSeconds;

    expect(await prepare()).toEqual({ ok: true, durationSeconds: LENGTH, hasVideo: true });
    // Retried after the cut was stored (the source is now 7 s long): not refused as past its end.
    expect(await prepare()).toEqual({ ok: true, durationSeconds: LENGTH, hasVideo: true });
    expect(Math.abs((await sourceSeconds()) - LENGTH)).toBeLessThan(0.05);
    // Retried after the whole file was written to the source again (a local upload is joined again).
    await api.blobStore.put(sourceKeys.media(id), Readable.from([clip]));
    expect(await prepare()).toEqual({ ok: true, durationSeconds: LENGTH, hasVideo: true });
    expect(Math.abs((await sourceSeconds()) - LENGTH)).toBeLessThan(0.05);
    expect(await api.blobStore.stat(sourceKeys.fullMedia(id))).toEqual({ sizeBytes: clip.length });
    const row = await api.db.selectFrom('projects').select(['source_duration_seconds', 'range_start_seconds', 'range_end_seconds']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ source_duration_seconds: LENGTH, range_start_seconds: 5, range_end_seconds: 12 });
  }, 60_000);
});
