import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { decodeSamples, ffmpeg, ffprobe, makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';

// A preview's cut (docs/previews.md#the-cut) with the real ffmpeg: exact to the sample, starting
// at 0, a video source's picture kept (H.264), an audio-only source's cut audio only.

const media = new FfmpegMediaEngine();
const RATE = 8000;
let dir: string;
let wav: string;

beforeAll(async () => {
  dir = makeTempDir('range-cut');
  // A tone that is silent before 2 s and loud after: where the cut starts is heard at once.
  wav = path.join(dir, 'step.wav');
  await ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=if(gte(t\\,2)\\,0.5*sin(2*PI*440*t)\\,0):s=${RATE}:d=6`, '-c:a', 'pcm_s16le', wav]);
});
afterAll(() => removeTempDir(dir));

it('cuts an audio-only source exactly, from the range start at 0', async () => {
  const out = path.join(dir, 'audio-cut.mkv');
  await media.cutRange(wav, out, { startSeconds: 2, endSeconds: 4.5, hasVideo: false });
  const probed = await ffprobe(out);
  expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['audio', 'flac']]);
  const samples = await decodeSamples(out, RATE);
  expect(samples.length).toBe(2.5 * RATE);
  // The tone starts within the first milliseconds: nothing of the silence before 2 s was kept.
  const firstLoud = samples.findIndex((s) => Math.abs(s) > 1000);
  expect(firstLoud).toBeLessThan((RATE / 1000) * 3);
});

it('cuts a video source to the range, its picture re-encoded as H.264', async () => {
  const video = path.join(dir, 'video.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=25:d=6', '-i', wav, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', video]);
  const out = path.join(dir, 'video-cut.mkv');
  await media.cutRange(video, out, { startSeconds: 1.5, endSeconds: 4, hasVideo: true });
  const probed = await ffprobe(out);
  expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
    ['video', 'h264'],
    ['audio', 'flac'],
  ]);
  // The audio to the sample; the container's duration within a couple of frames (2.5 s is 62.5 frames at 25 fps).
  expect((await decodeSamples(out, RATE)).length).toBe(2.5 * RATE);
  expect(Math.abs(probed.durationSeconds - 2.5)).toBeLessThan(0.1);
  const probe = await media.probe(out);
  expect(probe).toMatchObject({ hasAudio: true, hasVideo: true });
});
