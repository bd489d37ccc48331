import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listLanguageSegments } from '../../src/db/language-segments';
import { runProcess } from '../../src/engines/run-process';
import { WORD_JOINER as WJ } from '../../src/publish/caption-markup';
import { parseSrt, parseVtt } from '../../src/publish/captions';
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

const SECONDS = 8;
const CAP = { lines: 180, fps: 20 };
const SCRIPT = [
  { start_seconds: 0.4, end_seconds: 2.6, text: 'Good morning everyone.' },
  { start_seconds: 4.4, end_seconds: 7.4, text: 'The house is quiet.' },
];
const MARKUP = '{\\an8}<font size="300">Hola</font>';

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

  const file = path.join(dir, 'r1.mp4');
  await downloadVideo(api, tenant, id, file);
  const [video, original] = [await videoStream(file), await videoStream(source)];
  expect([original.width, original.height, original.avg_frame_rate]).toEqual([320, 240, '60/1']);
  expect([video.width, video.height]).toEqual([240, 180]);
  expect(video.avg_frame_rate).toBe(`${CAP.fps}/1`);
}, 240_000);

it('burns a line edited to {\\an8}<font size="300"> as text, at the bottom and no larger; the SRT escapes it, the VTT too', async () => {
  const line = (await listLanguageSegments(api.db, id, 'es_es'))[1]!;
  const edit = await request(api.baseUrl, 'PATCH', `/v1/dubbing/projects/${id}/languages/es_es/segments/${line.id}`, { headers: bearer(tenant.key), body: { text: MARKUP } });
  expect(edit.status).toBe(200);
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
