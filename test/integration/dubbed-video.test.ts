import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listLanguageSegments } from '../../src/db/language-segments';
import { parseVtt } from '../../src/publish/captions';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, makeTempDir, removeTempDir, speak, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView, workspaceRowCounts } from '../helpers/projects';
import { postLanguages, waitForProjectWorkflowClosed } from '../helpers/language-additions';
import { postRegenerate } from '../helpers/regenerations';
import { STORAGE_DRIVERS, storageEnv, type StorageDriver } from '../helpers/storage-drivers';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { runProcess } from '../../src/engines/run-process';

// The dubbed video (docs/video.md) on the real stack: the API, a real worker with the real
// engines, PostgreSQL, Temporal and both storage drivers. A completed language publishes an MP4
// with the source's video stream (copied: same codec, same frames), the dub as the first,
// default audio track tagged with the target language and the original as the second tagged
// with the source's; it downloads like the audio (302 to a signed URL that serves ranges); a
// regeneration publishes a new one. Burned captions change the picture only while a cue shows.

const SECONDS = 8;
const FRAME_SECONDS = 1 / 25;
const SCRIPT = [
  { start_seconds: 0.4, end_seconds: 2.6, text: 'Good morning everyone.' },
  { start_seconds: 5.0, end_seconds: 7.2, text: 'The house is quiet.' },
];

interface ProbedStream {
  index: number;
  codec_type: string;
  codec_name: string;
  nb_read_frames?: string;
  disposition: { default: number };
  tags?: { language?: string };
}

/** ffprobe with every frame counted, independent of the engine under test. */
async function probeCounted(file: string): Promise<{ duration: number; streams: ProbedStream[] }> {
  const { stdout } = await runProcess('ffprobe', ['-v', 'error', '-count_frames', '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: 60_000 });
  const parsed = JSON.parse(stdout.toString('utf8')) as { format: { duration: string }; streams: ProbedStream[] };
  return { duration: Number(parsed.format.duration), streams: parsed.streams };
}

/** One frame at `seconds` as 8-bit gray pixels. */
const frameAt = (file: string, seconds: number) => ffmpeg(['-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);

/**
 * The share of the lower third's pixels (where captions sit) that two gray frames show clearly
 * differently: a letter, not the noise of a re-encode.
 */
function lowerThirdChanged(a: Buffer, b: Buffer, width = 320): number {
  expect(a.length).toBe(b.length);
  const from = Math.floor((a.length / width) * (2 / 3)) * width;
  let changed = 0;
  for (let i = from; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 48) changed++;
  return changed / (a.length - from);
}

/** The dub track (first audio) decoded to PCM. */
const dubTrack = (file: string) => ffmpeg(['-i', file, '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1']);

async function dubbedProject(api: TestApi, tenant: TestTenant, clip: Buffer, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await createProject(
    api,
    tenant,
    projectBody({ source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length }, transcript: { format: 'json', content: JSON.stringify(SCRIPT) }, ...extra }),
  );
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  const done = await waitForProjectView(api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
  expect(done.status).toBe('completed');
  return id;
}

const videoRow = (api: TestApi, id: string, locale = 'es_es') =>
  api.db.selectFrom('deliverables').selectAll().where('project_id', '=', id).where('locale', '=', locale).where('type', '=', 'video').executeTakeFirst();

/** GET …/download for the video, then the signed URL it redirects to, saved to `file`. */
async function downloadVideo(api: TestApi, tenant: TestTenant, id: string, file: string, locale = 'es_es'): Promise<string> {
  const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=${locale}&type=video&format=mp4`, { headers: bearer(tenant.key) });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  const whole = await fetch(location);
  expect(whole.status).toBe(200);
  expect(whole.headers.get('content-type')).toBe('video/mp4');
  writeFileSync(file, Buffer.from(await whole.arrayBuffer()));
  return location;
}

let dir: string;
let clip: Buffer;
let source: string;
beforeAll(async () => {
  dir = makeTempDir('dubbed-video');
  clip = await spokenClip(dir, 'Good morning everyone. The house is quiet.', SECONDS);
  source = path.join(dir, 'clip.mp4');
}, 60_000);
afterAll(() => removeTempDir(dir));

describe.each(STORAGE_DRIVERS)('the dubbed video on the %s driver', (driver: StorageDriver) => {
  let api: TestApi;
  let worker: TestWorker;
  let tenant: TestTenant;
  let id: string;
  beforeAll(async () => {
    api = await startTestApi(storageEnv(driver));
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: storageEnv(driver) });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  it('publishes an MP4: the source video copied frame for frame, the dub as the default track (spa), the original second (eng); downloads serve ranges', async () => {
    tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
    id = await dubbedProject(api, tenant, clip);
    const view = (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
    const es = view.languages[0];
    expect(es.video).toEqual({ burned_captions: false });
    expect(es.deliverables).toContainEqual({ type: 'video', format: 'mp4', download_url: expect.stringContaining('type=video&format=mp4') });
    // No extra charge for the video (docs/money.md): the project paid its seconds once per language.
    expect(view.usage.charged_seconds).toBe(SECONDS);

    const file = path.join(dir, `${driver}-dub.mp4`);
    const location = await downloadVideo(api, tenant, id, file);
    const row = (await videoRow(api, id))!;
    expect(row).toMatchObject({ format: 'mp4', content_type: 'video/mp4' });
    const [probed, original] = await Promise.all([probeCounted(file), probeCounted(source)]);
    const video = probed.streams.filter((s) => s.codec_type === 'video');
    const audio = probed.streams.filter((s) => s.codec_type === 'audio');
    const sourceVideo = original.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toHaveLength(1);
    expect(video[0]!.codec_name).toBe(sourceVideo.codec_name);
    expect(Math.abs(Number(video[0]!.nb_read_frames) - Number(sourceVideo.nb_read_frames))).toBeLessThanOrEqual(1);
    expect(audio.map((a) => [a.tags?.language, a.disposition.default])).toEqual([
      ['spa', 1],
      ['eng', 0],
    ]);
    expect(Math.abs(probed.duration - original.duration)).toBeLessThanOrEqual(FRAME_SECONDS + 1e-6);
    // Copied, not re-encoded: the picture's packets are the source's, byte for byte.
    const packets = (f: string) => ffmpeg(['-i', f, '-map', '0:v:0', '-c', 'copy', '-f', 'h264', 'pipe:1']);
    expect((await packets(file)).equals(await packets(source))).toBe(true);
    // The dub track is the dub, not the original: they differ; the original track is the source's sound.
    const originalTrack = await ffmpeg(['-i', file, '-map', '0:a:1', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1']);
    expect((await dubTrack(file)).equals(originalTrack)).toBe(false);

    // A player seeking: the signed URL answers a range with those bytes only.
    const ranged = await fetch(location, { headers: { range: 'bytes=100-1099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${row.size_bytes}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toHaveLength(1000);
    // +faststart: the index (moov) comes before the media (mdat).
    const head = Buffer.from(await (await fetch(location, { headers: { range: 'bytes=0-65535' } })).arrayBuffer()).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat'));
  }, 240_000);

  it('a regeneration publishes a new video with the new dub under the same picture', async () => {
    const before = (await videoRow(api, id))!;
    const line = (await listLanguageSegments(api.db, id, 'es_es'))[1]!;
    const edit = await request(api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line.id}`, {
      headers: bearer(tenant.key),
      body: { text: 'La casa está muy tranquila esta noche.' },
    });
    expect(edit.status).toBe(200);
    const res = await postRegenerate(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
    expect(res.status).toBe(200);
    await waitForProjectView(api, tenant, id, 'revision 2', (p) => p.languages[0]?.revision === 2, 180_000);
    const after = (await videoRow(api, id))!;
    expect(after.storage_key).not.toBe(before.storage_key);
    expect(after.storage_key).toContain('/r2/');

    const [first, second] = [path.join(dir, `${driver}-r1.mp4`), path.join(dir, `${driver}-r2.mp4`)];
    writeFileSync(first, Buffer.from(await (await fetch(await api.downloadLinks.urlFor(before.storage_key, { fileName: 'r1.mp4', ttlSeconds: 60 }))).arrayBuffer()));
    await downloadVideo(api, tenant, id, second);
    const probed = await probeCounted(second);
    expect(probed.streams.map((s) => s.codec_type)).toEqual(['video', 'audio', 'audio']);
    expect(Math.abs(probed.duration - (await probeCounted(source)).duration)).toBeLessThanOrEqual(FRAME_SECONDS + 1e-6);
    expect((await dubTrack(second)).equals(await dubTrack(first))).toBe(false);
  }, 240_000);
});

describe('burned captions and the video option', () => {
  let api: TestApi;
  let worker: TestWorker;
  beforeAll(async () => {
    api = await startTestApi();
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  it("burns the language's cues into the picture: frames change only while a cue is shown", async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
    const id = await dubbedProject(api, tenant, clip, { video: { burned_captions: true } });
    const view = (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;
    expect(view.video).toEqual({ burned_captions: true });
    expect(view.languages[0].video).toEqual({ burned_captions: true });

    const file = path.join(dir, 'burned.mp4');
    await downloadVideo(api, tenant, id, file);
    const probed = await probeCounted(file);
    const video = probed.streams.find((s) => s.codec_type === 'video')!;
    const sourceVideo = (await probeCounted(source)).streams.find((s) => s.codec_type === 'video')!;
    // Re-encoded (H.264), every frame kept.
    expect(video.codec_name).toBe('h264');
    expect(Math.abs(Number(video.nb_read_frames) - Number(sourceVideo.nb_read_frames))).toBeLessThanOrEqual(1);

    const vtt = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=subtitles&format=vtt`, { headers: bearer(tenant.key) });
    const cues = parseVtt(vtt.body as string);
    expect(cues.length).toBeGreaterThan(0);
    const inside = (cues[0]!.startSeconds + cues[0]!.endSeconds) / 2;
    // The middle of the longest stretch without a cue (the clip's start counts).
    const gaps = [0, ...cues.map((c) => c.endSeconds)].map((from, i) => ({ from, to: cues[i]?.startSeconds ?? SECONDS - 0.2 }));
    const gap = gaps.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a));
    expect(gap.to - gap.from).toBeGreaterThan(0.5);
    const outside = (gap.from + gap.to) / 2;
    const shown = lowerThirdChanged(await frameAt(file, inside), await frameAt(source, inside));
    const hidden = lowerThirdChanged(await frameAt(file, outside), await frameAt(source, outside));
    expect(hidden).toBeLessThan(0.001);
    expect(shown).toBeGreaterThan(0.02);
  }, 240_000);

  it('gives an audio-only source no video: none listed, and its download is a 404 naming `type`', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
    const wav = readFileSync(await speak('Good morning everyone.', path.join(dir, 'audio-only.wav')));
    const created = await createProject(api, tenant, projectBody({ source: { type: 'upload', file_name: 'audio-only.wav', size_bytes: wav.length }, video: { burned_captions: true } }));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await uploadAndComplete(api, tenant, created.body.data, wav)).status).toBe(200);
    const done = await waitForProjectView(api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
    expect(done.status).toBe('completed');
    expect(done.languages[0].deliverables.map((d: { type: string }) => d.type)).toEqual(expect.arrayContaining(['audio', 'subtitles', 'thumbnail']));
    expect(done.languages[0].deliverables.map((d: { type: string }) => d.type)).not.toContain('video');
    expect(await videoRow(api, id)).toBeUndefined();
    const res = await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&type=video`, { headers: bearer(tenant.key) });
    expect([res.status, res.body.error.type, res.body.error.code, res.body.error.param]).toEqual([404, 'not_found_error', 'not_found', 'type']);
  }, 240_000);

  it('refuses a bad video option with a 400 naming it, writing nothing', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
    const before = await workspaceRowCounts(api, tenant.workspace.id);
    for (const [video, param] of [
      [{ burned_captions: 'yes' }, 'video.burned_captions'],
      [{ burn: true }, 'video.burn'],
      ['on', 'video'],
    ] as const) {
      const res = await createProject(api, tenant, projectBody({ video }));
      expect([res.status, res.body.error.type, res.body.error.param]).toEqual([400, 'invalid_request_error', param]);
    }
    expect(await workspaceRowCounts(api, tenant.workspace.id)).toEqual(before);
  });

  it('records the choice of a languages addition on the languages it adds', async () => {
    const tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
    const id = await dubbedProject(api, tenant, clip);
    // The run that dubbed it has ended: the addition starts a new one (docs/design.md#languages).
    await waitForProjectWorkflowClosed(api, id);
    const bad = await postLanguages(api, tenant, id, { target_locales: ['ca_es'], max_billable_seconds: 60, preview_only: false, video: { burned_captions: 1 } }, randomUUID());
    expect([bad.status, bad.body.error.param]).toEqual([400, 'video.burned_captions']);
    const res = await postLanguages(api, tenant, id, { target_locales: ['ca_es'], max_billable_seconds: 60, preview_only: false, video: { burned_captions: true } }, randomUUID());
    expect(res.status).toBe(200);
    const rows = await api.db.selectFrom('project_languages').select(['locale', 'video_burned_captions']).where('project_id', '=', id).orderBy('locale').execute();
    expect(rows).toEqual([
      { locale: 'ca_es', video_burned_captions: true },
      { locale: 'es_es', video_burned_captions: false },
    ]);
    const done = await waitForProjectView(api, tenant, id, 'ca_es dubbed', (p) => p.languages.every((l: { status: string }) => l.status === 'completed'), 180_000);
    const ca = done.languages.find((l: { locale: string }) => l.locale === 'ca_es');
    expect(ca.video).toEqual({ burned_captions: true });
    const file = path.join(dir, 'added.mp4');
    await downloadVideo(api, tenant, id, file, 'ca_es');
    const probed = await probeCounted(file);
    expect(probed.streams.filter((s) => s.codec_type === 'audio').map((a) => a.tags?.language)).toEqual(['cat', 'eng']);
  }, 300_000);
});
