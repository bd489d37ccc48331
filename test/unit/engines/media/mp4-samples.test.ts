import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { readMp3Layout } from '../../../../src/engines/media/mp3-frames';
import { firstAudioTrackSamples, indexEnd, mp3PatchesInMp4 } from '../../../../src/engines/media/mp4-samples';
import { ffmpeg, makeTempDir, makeVideo, removeTempDir } from '../../../helpers/media-fixtures';

// A regeneration writes the new MP3's frames over the published video's copy of them instead of
// muxing it again (docs/video.md#regenerations). On the real ffmpeg: the patched MP4 must be, to
// the byte, the MP4 a mux of the new MP3 makes; and anything but an MP3 track copied frame for
// frame, or an index after the media, is refused.

const media = new FfmpegMediaEngine();
let dir: string;
let source: string;
let mp3: string;

beforeAll(async () => {
  dir = makeTempDir('mp4-samples');
  const tone = path.join(dir, 'tone.wav');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=300:sample_rate=48000:d=6', '-ac', '2', '-c:a', 'pcm_s16le', tone]);
  source = await makeVideo(path.join(dir, 'source.mp4'), 6, tone);
  const dub = path.join(dir, 'dub.wav');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=500:sample_rate=48000:d=6', '-ac', '2', '-c:a', 'pcm_s16le', dub]);
  mp3 = path.join(dir, 'dub.mp3');
  await media.encodeMp3(dub, mp3);
});
afterAll(() => removeTempDir(dir));

const mux = async (dubAudio: string, out: string) => {
  await media.muxVideo({ source, dubAudio, dubLanguage: 'spa', sourceLanguage: 'eng' }, path.join(dir, out));
  return readFileSync(path.join(dir, out));
};

it("moves an MP3's frame patches into the MP4: the patched file is a fresh mux of the new MP3, byte for byte", async () => {
  const published = readFileSync(mp3);
  const layout = readMp3Layout(published, published.length)!;
  expect(layout).not.toBeNull();
  // Frames 40–59 replaced by frames 100–119 (whole frames), and part of frame 150 by zeros.
  const frame = (n: number) => layout.audioOffset + n * layout.frameBytes;
  const patches = [
    { offset: frame(40), bytes: Buffer.from(published.subarray(frame(100), frame(120))) },
    { offset: frame(150) + 10, bytes: Buffer.alloc(20) },
  ];
  const changed = Buffer.from(published);
  for (const p of patches) p.bytes.copy(changed, p.offset);
  const changedMp3 = path.join(dir, 'changed.mp3');
  writeFileSync(changedMp3, changed);

  const before = await mux(mp3, 'before.mp4');
  const expected = await mux(changedMp3, 'expected.mp4');
  expect(expected.equals(before)).toBe(false);

  const end = indexEnd(before.subarray(0, 64 * 1024))!;
  expect(end).toBeGreaterThan(0);
  const track = firstAudioTrackSamples(before.subarray(0, end))!;
  expect(track.codec).toBe('mp4a.6b');
  expect(track.samples).toHaveLength(layout.frames);
  const moved = mp3PatchesInMp4(layout, track, patches)!;
  const patched = Buffer.from(before);
  for (const p of moved) p.bytes.copy(patched, p.offset);
  expect(patched.equals(expected)).toBe(true);
});

it("refuses a dub track that is not the MP3's frames, a patch outside them, and an index after the media", async () => {
  const published = readFileSync(mp3);
  const layout = readMp3Layout(published, published.length)!;
  const fromWav = await mux(path.join(dir, 'tone.wav'), 'aac.mp4'); // a WAV dub is encoded to AAC
  const aacTrack = firstAudioTrackSamples(fromWav.subarray(0, indexEnd(fromWav)!))!;
  expect(aacTrack.codec).toBe('mp4a.40.2');
  expect(mp3PatchesInMp4(layout, aacTrack, [])).toBeNull();

  const before = await mux(mp3, 'again.mp4');
  const track = firstAudioTrackSamples(before.subarray(0, indexEnd(before)!))!;
  expect(mp3PatchesInMp4(layout, track, [{ offset: layout.audioOffset - 1, bytes: Buffer.alloc(2) }])).toBeNull();
  expect(mp3PatchesInMp4(layout, track, [{ offset: layout.audioOffset + layout.frames * layout.frameBytes - 1, bytes: Buffer.alloc(2) }])).toBeNull();
  expect(mp3PatchesInMp4({ ...layout, frames: layout.frames - 1 }, track, [])).toBeNull();

  // The same MP4 with its index at the end, as a mux without +faststart writes it.
  const late = path.join(dir, 'late.mp4');
  await ffmpeg(['-i', path.join(dir, 'again.mp4'), '-map', '0', '-c', 'copy', late]);
  expect(indexEnd(readFileSync(late))).toBeNull();
});
