import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listLanguageSegments } from '../../src/db/language-segments';
import { runProcess } from '../../src/engines/run-process';
import { WORD_JOINER as WJ } from '../../src/publish/caption-markup';
import { parseSrt, parseVtt } from '../../src/publish/captions';
import { checkTtml } from '../helpers/ttml-checks';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg, makeTempDir, removeTempDir, speak } from '../helpers/media-fixtures';
import { createProject, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';
import { postRegenerate } from '../helpers/regenerations';
import { request, startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// Captions show the customer's text as written, and the dubbed video's encoded picture stays
// within the size cap (docs/video.md), on the real stack: the API, a worker with the real engines
// and ffmpeg, PostgreSQL and Temporal. The worker runs with a low cap (180 lines, 20 fps) so a
// small 60 fps source is above it. A line edited to ASS and HTML-like markup is burned as those
// characters, at the bottom where captions sit, and the SRT download escapes it as documented.
// The same regeneration makes the first line too long for its time (docs/captions.md): its cues
// are still published, QC reports their reading speed, and the TTML download passes the checks.

const SECONDS = 8;
const CAP = { lines: 180, fps: 20 };
const SCRIPT = [
  { start_seconds: 0.4, end_seconds: 2.6, text: 'Good morning everyone.' },
  { start_seconds: 4.4, end_seconds: 7.4, text: 'The house is quiet.' },
];
const MARKUP = '{\\an8}<font size="300">Hola</font>';
/**
 * 72 characters, the most a 2.2 s line may carry (docs/editing.md#how-much-text-a-cue-can-carry),
 * with the next line 1.8 s after its slot: whatever speed it is spoken at, its cue can stay on
 * until 2 frames before the next line (4.316 s), and 71 characters (the break is not read) in
 * 3.916 s read at 18.1 a second: more than 17, a breach the speech forces.
 */
const FAST = 'Buenos días a todos, bienvenidos a esta casa tan tranquila en la sierra.';

interface VideoStream {
  codec_type: string;
  width: number;
  height: number;
  avg_frame_rate: string;
}

async function videoStream(file: string): Promise<VideoStream> {
  const { stdout } = await runProcess('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', file], { timeoutMs: 30_000 });
  return (JSON.parse(stdout.toString('utf8')) as { streams: VideoStream[] }).streams.find((s) => s.codec_type === 'video')!;
}

/** One frame at `seconds`, `width`×`height`, as 8-bit gray pixels. */
const frameAt = (file: string, seconds: number, width: number, height: number) =>
  ffmpeg(['-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);

/** The share of pixels in rows [from, to) (fractions of the height) that two gray frames show clearly differently. */
function changedShare(a: Buffer, b: Buffer, width: number, from: number, to: number): number {
  expect(a.length).toBe(b.length);
  const rows = a.length / width;
  const [start, end] = [Math.floor(rows * from) * width, Math.floor(rows * to) * width];
  let changed = 0;
  for (let i = start; i < end; i++) if (Math.abs(a[i]! - b[i]!) > 48) changed++;
  return changed / (end - start);
}

const download = (api: TestApi, tenant: TestTenant, id: string, query: string) =>
  request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/download?locale=es_es&${query}`, { headers: bearer(tenant.key) });
const qc = (api: TestApi, tenant: TestTenant, id: string, locale = 'es_es') => request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}/languages/${locale}/qc`, { headers: bearer(tenant.key) });
const projectView = async (api: TestApi, tenant: TestTenant, id: string) => (await request(api.baseUrl, 'GET', `/v1/dubbing/projects/${id}`, { headers: bearer(tenant.key) })).body.data;

async function downloadVideo(api: TestApi, tenant: TestTenant, id: string, file: string): Promise<void> {
  const res = await download(api, tenant, id, 'type=video&format=mp4');
  expect(res.status).toBe(302);
  writeFileSync(file, Buffer.from(await (await fetch(res.headers.get('location')!)).arrayBuffer()));
}

let dir: string;
let source: string;
let api: TestApi;
let worker: TestWorker;
let tenant: TestTenant;
let id: string;
beforeAll(async () => {
  dir = makeTempDir('caption-markup');
  const speech = await speak('Good morning everyone. The house is quiet.', path.join(dir, 'speech.wav'));
  source = path.join(dir, 'clip.mp4');
  // 320×240 at 60 fps: above the worker's cap in both size and rate.
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=320x240:r=60:d=${SECONDS}`,
    '-i',
    speech,
    '-af',
    `apad,atrim=duration=${SECONDS}`,
    '-c:a',
    'aac',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-t',
    String(SECONDS),
    source,
  ]);
  api = await startTestApi();
  worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: { MAX_VIDEO_RESOLUTION: String(CAP.lines), MAX_VIDEO_FPS: String(CAP.fps) } });
}, 90_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  removeTempDir(dir);
});

it('renders a source above the cap within it: scaled down keeping its shape, at most the capped frame rate', async () => {
  tenant = await createTenant(api.db, { credits: 10_000, creditsPerSecond: 10 });
  const clip = readFileSync(source);
  const created = await createProject(
    api,
    tenant,
    projectBody({
      source: { type: 'upload', file_name: 'clip.mp4', size_bytes: clip.length },
      transcript: { format: 'json', content: JSON.stringify(SCRIPT) },
      video: { burned_captions: true },
    }),
  );
  expect(created.status).toBe(201);
  id = created.body.data.id as string;
  expect((await uploadAndComplete(api, tenant, created.body.data, clip)).status).toBe(200);
  const done = await waitForProjectView(api, tenant, id, 'the dub', (p) => p.status === 'completed' || p.status === 'failed', 180_000);
  expect(done.status).toBe('completed');
  // The default preset, and QC counted as published: the view's count is the endpoint's.
  expect(done.caption_rules).toBe('standard');
  const report = await qc(api, tenant, id);
  expect(report.status).toBe(200);
  expect(done.languages[0].caption_qc).toEqual({ preset: 'standard', breaches: report.body.data.totals.breaches });

  const file = path.join(dir, 'r1.mp4');
  await downloadVideo(api, tenant, id, file);
  const [video, original] = [await videoStream(file), await videoStream(source)];
  expect([original.width, original.height, original.avg_frame_rate]).toEqual([320, 240, '60/1']);
  expect([video.width, video.height]).toEqual([240, 180]);
  expect(video.avg_frame_rate).toBe(`${CAP.fps}/1`);
}, 240_000);

it('burns a line edited to {\\an8}<font size="300"> as text, at the bottom and no larger; the SRT escapes it, the VTT too', async () => {
  const [first, line] = await listLanguageSegments(api.db, id, 'es_es');
  const edit = await request(api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line!.id}`, { headers: bearer(tenant.key), body: { text: MARKUP } });
  expect(edit.status).toBe(200);
  const fast = await request(api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${first!.id}`, { headers: bearer(tenant.key), body: { text: FAST } });
  expect(fast.status).toBe(200);
  const res = await postRegenerate(api, tenant, id, { max_billable_seconds: 60, preview_only: false }, randomUUID());
  expect(res.status).toBe(200);
  await waitForProjectView(api, tenant, id, 'revision 2', (p) => p.languages[0]?.revision === 2, 180_000);

  const vtt = await download(api, tenant, id, 'type=subtitles&format=vtt');
  expect(vtt.body as string).toContain('{\\an8}&lt;font size="300"&gt;Hola&lt;/font&gt;');
  const cue = parseVtt(vtt.body as string).find((c) => c.text === MARKUP)!;
  expect(cue).toBeDefined();

  // The burned caption: drawn in the bottom quarter, where the first revision drew its captions,
  // and nowhere above (\an8 would put it at the top, size 300 would fill the picture).
  const file = path.join(dir, 'r2.mp4');
  await downloadVideo(api, tenant, id, file);
  const { width, height } = await videoStream(file);
  const at = (cue.startSeconds + cue.endSeconds) / 2;
  const [burned, plain] = [await frameAt(file, at, width, height), await frameAt(source, at, width, height)];
  expect(changedShare(burned, plain, width, 0, 0.75)).toBeLessThan(0.001);
  expect(changedShare(burned, plain, width, 0.75, 1)).toBeGreaterThan(0.02);

  // The SRT: a word joiner after each `{`, `\` and `<` (docs/video.md), read back as the words.
  const srt = await download(api, tenant, id, 'type=subtitles&format=srt');
  expect(srt.status).toBe(200);
  expect(srt.body as string).toContain(`{${WJ}\\${WJ}an8}<${WJ}font size="300">Hola<${WJ}/font>`);
  expect(srt.body as string).not.toContain(MARKUP);
  expect(parseSrt(srt.body as string).map((c) => c.text)).toContain(MARKUP);
}, 300_000);

it("reports the fast line's reading speed through QC, judging exactly the published cues; the view counts the same breaches", async () => {
  const [first, markup] = await listLanguageSegments(api.db, id, 'es_es');
  const report = await qc(api, tenant, id);
  expect(report.status).toBe(200);
  const { data } = report.body;
  expect([data.revision, data.preset, data.rules.max_chars_per_second, data.rules.min_gap_seconds]).toEqual([2, 'standard', 17, 0.0834]);

  // What QC judged is what the WebVTT download publishes, cue for cue.
  const vtt = parseVtt((await download(api, tenant, id, 'type=subtitles&format=vtt')).body as string);
  expect(data.cues.map((c: any) => [c.start, c.end, c.text])).toEqual(vtt.map((c) => [c.startSeconds, c.endSeconds, c.text]));

  // The fast line is still captioned, every word of it, and each of its cues names the breach.
  const fastCues = data.cues.filter((c: any) => c.line_id === first!.id);
  expect(fastCues.map((c: any) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(FAST);
  for (const cue of fastCues) {
    const speed = cue.breaches.find((b: any) => b.rule === 'reading_speed');
    expect(speed).toEqual({ rule: 'reading_speed', value: expect.any(Number), limit: 17 });
    expect(speed.value).toBeGreaterThan(17);
  }
  expect(data.cues.find((c: any) => c.text === MARKUP).line_id).toBe(markup!.id);
  expect(data.totals.by_rule.reading_speed).toBeGreaterThanOrEqual(fastCues.length);
  expect(data.totals.breaches).toBe(data.cues.reduce((sum: number, c: any) => sum + c.breaches.length, 0));

  const view = await projectView(api, tenant, id);
  expect(view.languages[0].caption_qc).toEqual({ preset: 'standard', breaches: data.totals.breaches });
}, 60_000);

it('serves the TTML deliverable in the IMSC 1.1 Text Profile, valid, with the same cues, the markup as text', async () => {
  const res = await download(api, tenant, id, 'type=subtitles&format=ttml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/ttml+xml');
  const check = checkTtml(res.body as string);
  expect(check.problems).toEqual([]);
  const vtt = parseVtt((await download(api, tenant, id, 'type=subtitles&format=vtt')).body as string);
  expect(check.paragraphs.map((p) => [p.begin, p.end, p.lines.join('\n')])).toEqual(vtt.map((c) => [c.startSeconds, c.endSeconds, c.text]));
  expect(check.paragraphs.some((p) => p.lines.includes(MARKUP))).toBe(true);
  const view = await projectView(api, tenant, id);
  expect(view.languages[0].deliverables.map((d: any) => d.format)).toContain('ttml');
}, 60_000);

it('answers QC like the other language reads: unknown locale or project of another workspace 404, a language not dubbed yet 409', async () => {
  expect((await qc(api, tenant, id, 'fr_fr')).body.error).toMatchObject({ code: 'not_found', param: 'locale' });
  const other = await createTenant(api.db, { credits: 1_000, creditsPerSecond: 10 });
  const foreign = await qc(api, other, id);
  expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
  // An upload project whose file never came: its language has not started.
  const waiting = await createProject(api, tenant, projectBody({ caption_rules: 'children' }));
  expect(waiting.status).toBe(201);
  expect(waiting.body.data.caption_rules).toBe('children');
  const early = await qc(api, tenant, waiting.body.data.id);
  expect([early.status, early.body.error.code]).toEqual([409, 'language_not_completed']);
  const bad = await createProject(api, tenant, projectBody({ caption_rules: 'cinema' }));
  expect([bad.status, bad.body.error.param]).toEqual([400, 'caption_rules']);
}, 60_000);
