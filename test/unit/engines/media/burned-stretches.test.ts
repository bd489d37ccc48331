import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { toBurnedCaptions } from '../../../../src/publish/burned-captions';
import { ffmpeg, makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// A burned-captions video with only some GOPs encoded again (docs/video.md#regenerations), on the
// real ffmpeg: the frames outside the stretches are the published ones, the frames inside are a
// whole mux's of the new captions, and stretches or a published picture that do not fit are refused.

const media = new FfmpegMediaEngine();
const SECONDS = 10;
const FRAME_BYTES = 320 * 240;
let dir: string;
let base: { source: string; dubAudio: string; dubLanguage: string; sourceLanguage: string; sourceSeconds: number };
let published: string;
let whole: string;
let reworded: string;

const cues = [
  { startSeconds: 0.5, endSeconds: 3, text: 'One' },
  { startSeconds: 4.5, endSeconds: 5.5, text: 'Two' },
  { startSeconds: 7, endSeconds: 9, text: 'Three' },
];
/** Every frame as 8-bit gray pixels, one after the other. */
const frames = (file: string) => ffmpeg(['-i', file, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
const frame = (all: Buffer, n: number) => all.subarray(n * FRAME_BYTES, (n + 1) * FRAME_BYTES);

beforeAll(async () => {
  dir = makeTempDir('burned-stretches');
  const source = path.join(dir, 'source.mp4');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=s=320x240:r=25:d=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=300:d=${SECONDS}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    source,
  ]);
  const dubAudio = path.join(dir, 'dub.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', `sine=f=500:sample_rate=48000:d=${SECONDS}`, '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', dubAudio]);
  base = { source, dubAudio, dubLanguage: 'spa', sourceLanguage: 'eng', sourceSeconds: SECONDS };
  const before = path.join(dir, 'before.ass');
  reworded = path.join(dir, 'after.ass');
  writeFileSync(before, toBurnedCaptions(cues));
  writeFileSync(reworded, toBurnedCaptions(cues.map((c, i) => (i === 1 ? { ...c, text: 'Dos, reworded' } : c))));
  published = path.join(dir, 'published.mp4');
  whole = path.join(dir, 'whole.mp4');
  await media.muxVideo({ ...base, burnCaptions: before }, published);
  await media.muxVideo({ ...base, burnCaptions: reworded }, whole);
}, 120_000);
afterAll(() => removeTempDir(dir));

it("tells the published picture's codec and keyframes: one every 2 s", async () => {
  expect(await media.publishedPicture(published)).toEqual({ codec: 'h264', keyframes: [0, 2, 4, 6, 8], durationSeconds: expect.closeTo(SECONDS, 1) });
});

it('encodes only the stretch: the published frames outside it, the whole mux of the new captions inside it', async () => {
  const out = path.join(dir, 'joined.mp4');
  const joined = await media.muxVideoStretches({ ...base, burnCaptions: reworded, published, stretches: [{ startSeconds: 4, endSeconds: 6 }] }, out);
  expect(joined).toMatchObject({ joined: true, encodedFrames: 50, frames: 250, videoCodec: 'h264', originalTrack: true });
  const [after, before, all] = [await frames(out), await frames(published), await frames(whole)];
  expect(after.length).toBe(all.length);
  expect(after.subarray(0, 100 * FRAME_BYTES).equals(before.subarray(0, 100 * FRAME_BYTES))).toBe(true);
  expect(after.subarray(150 * FRAME_BYTES).equals(before.subarray(150 * FRAME_BYTES))).toBe(true);
  // Frame 125 (5 s) shows the reworded cue: not the published frame, the whole mux's within encoding noise.
  const differing = (a: Buffer, b: Buffer) => a.filter((v, i) => Math.abs(v - b[i]!) > 48).length / a.length;
  expect(differing(frame(after, 125), frame(before, 125))).toBeGreaterThan(0.002);
  expect(differing(frame(after, 125), frame(all, 125))).toBeLessThan(0.0005);
}, 60_000);

it('refuses stretches that do not start at a keyframe, and a published picture encoded otherwise', async () => {
  const out = path.join(dir, 'refused.mp4');
  expect(await media.muxVideoStretches({ ...base, burnCaptions: reworded, published, stretches: [{ startSeconds: 3, endSeconds: 6 }] }, out)).toEqual({
    joined: false,
    reason: 'a stretch does not start and end at keyframes',
  });
  // The source's own picture, copied: H.264, but not the set-up a mux encodes with.
  const copied = path.join(dir, 'copied.mp4');
  await media.muxVideo(base, copied);
  const keyframes = (await media.publishedPicture(copied))!.keyframes;
  const refused = await media.muxVideoStretches({ ...base, burnCaptions: reworded, published: copied, stretches: [{ startSeconds: keyframes[0]!, endSeconds: keyframes[1] ?? SECONDS }] }, out);
  expect(refused).toEqual({ joined: false, reason: 'a stretch was encoded with another set-up than the published picture' });
}, 60_000);
