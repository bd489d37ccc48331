import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { InvalidMediaError } from '../../../../src/engines/media/invalid-media-error';
import { capFilters, videoMuxPlan } from '../../../../src/engines/media/video-mux';
import { toBurnedCaptions } from '../../../../src/publish/burned-captions';
import { iso6392 } from '../../../../src/shared/iso-639-2';
import { runProcess } from '../../../../src/engines/run-process';
import { ffmpeg, makeTempDir, makeTone, removeTempDir } from '../../../helpers/media-fixtures';

// The dubbed video's mux (docs/video.md) on the real ffmpeg: which sources are copied and which
// re-encoded, how the tracks are tagged, and the sources that have no audio or no picture.

const media = new FfmpegMediaEngine();
let dir: string;
let dub: string;

interface Stream {
  codec_type: string;
  codec_name: string;
  nb_read_frames?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  disposition: { default: number };
  tags?: { language?: string };
}

async function streams(file: string): Promise<Stream[]> {
  const { stdout } = await runProcess('ffprobe', ['-v', 'error', '-count_frames', '-print_format', 'json', '-show_streams', file], { timeoutMs: 30_000 });
  return (JSON.parse(stdout.toString('utf8')) as { streams: Stream[] }).streams;
}

beforeAll(async () => {
  dir = makeTempDir('mux-video');
  dub = path.join(dir, 'dub.wav');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=f=500:sample_rate=48000:d=2', '-ac', '2', '-c:a', 'pcm_s16le', dub]);
});
afterAll(() => removeTempDir(dir));

const spec = (source: string, extra: object = {}) => ({ source, dubAudio: dub, dubLanguage: 'spa', sourceLanguage: 'eng', ...extra });

it('re-encodes a VP9 + Opus WebM to H.264, every frame kept, the Opus original encoded to AAC', async () => {
  const source = path.join(dir, 'source.webm');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=160x120:r=25:d=2', '-f', 'lavfi', '-i', 'sine=f=300:d=2', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-c:a', 'libopus', source]);
  const out = path.join(dir, 'from-webm.mp4');
  expect(await media.muxVideo(spec(source), out)).toEqual({ videoCodec: 'h264', copied: false, originalTrack: true });
  const [muxed, original] = [await streams(out), await streams(source)];
  expect(muxed.map((s) => [s.codec_type, s.codec_name, s.tags?.language ?? null, s.disposition.default])).toEqual([
    ['video', 'h264', expect.anything(), 1],
    ['audio', 'aac', 'spa', 1],
    ['audio', 'aac', 'eng', 0],
  ]);
  expect(Math.abs(Number(muxed[0]!.nb_read_frames) - Number(original.find((s) => s.codec_type === 'video')!.nb_read_frames))).toBeLessThanOrEqual(1);
});

it('gives a source without sound the dub alone', async () => {
  const source = path.join(dir, 'silent.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=160x120:r=25:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
  const out = path.join(dir, 'silent-dub.mp4');
  expect(await media.muxVideo(spec(source), out)).toEqual({ videoCodec: 'h264', copied: true, originalTrack: false });
  expect((await streams(out)).map((s) => [s.codec_type, s.tags?.language ?? null])).toEqual([
    ['video', expect.anything()],
    ['audio', 'spa'],
  ]);
});

it('refuses a source without a picture (cover art is not one)', async () => {
  const tone = await makeTone(path.join(dir, 'tone.wav'), 1);
  await expect(media.muxVideo(spec(tone), path.join(dir, 'none.mp4'))).rejects.toBeInstanceOf(InvalidMediaError);
});

it('burns captions from a path with quotes, brackets and commas in it', async () => {
  const source = path.join(dir, 'silent.mp4');
  const odd = path.join(dir, "it's [a], test; 100%");
  mkdirSync(odd);
  const srt = path.join(odd, 'captions.srt');
  writeFileSync(srt, '1\n00:00:00,000 --> 00:00:02,000\nHola: "¿qué tal?" 100% \\ [x]\n');
  const out = path.join(dir, 'burned.mp4');
  expect(await media.muxVideo(spec(source, { burnCaptions: srt }), out)).toMatchObject({ videoCodec: 'h264', copied: false });
  const frame = (file: string) => ffmpeg(['-ss', '1', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
  const [burned, plain] = [await frame(out), await frame(source)];
  let changed = 0;
  for (let i = 0; i < burned.length; i++) if (Math.abs(burned[i]! - plain[i]!) > 48) changed++;
  expect(changed).toBeGreaterThan(100);
});

/** The share of pixels of rows [from, to) (fractions of the height) that two gray frames show clearly differently. */
function changedShare(a: Buffer, b: Buffer, width: number, from: number, to: number): number {
  const rows = a.length / width;
  const [start, end] = [Math.floor(rows * from) * width, Math.floor(rows * to) * width];
  let changed = 0;
  for (let i = start; i < end; i++) if (Math.abs(a[i]! - b[i]!) > 48) changed++;
  return changed / (end - start);
}

it('burns markup in a cue as text: {\\an8} and <font size="300"> neither move nor resize the caption', async () => {
  const source = path.join(dir, 'silent.mp4');
  const frame = (file: string) => ffmpeg(['-ss', '1', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
  const burn = async (name: string, text: string) => {
    const ass = path.join(dir, `${name}.ass`);
    writeFileSync(ass, toBurnedCaptions([{ startSeconds: 0, endSeconds: 2, text }]));
    await media.muxVideo(spec(source, { burnCaptions: ass }), path.join(dir, `${name}.mp4`));
    return frame(path.join(dir, `${name}.mp4`));
  };
  const plain = await frame(source);
  const marked = await burn('markup', '{\\an8}<font size="300">Hi</font>');
  // Drawn in the bottom quarter, where captions sit, and nowhere above it.
  expect(changedShare(marked, plain, 160, 0.75, 1)).toBeGreaterThan(0.02);
  expect(changedShare(marked, plain, 160, 0, 0.75)).toBe(0);
  // As wide as the same characters without any meaning: the letters, not a style.
  const literal = await burn('literal', '{\\an8}<font size="300">Hi</font>'.replace(/[{}<>]/g, '|'));
  expect(Math.abs(changedShare(marked, plain, 160, 0.75, 1) - changedShare(literal, plain, 160, 0.75, 1))).toBeLessThan(0.02);
});

it('keeps an encoded picture within the cap: a 320×240 50 fps source capped at 120 lines and 25 fps is 160×120 at 25 fps', async () => {
  const source = path.join(dir, 'fast.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=320x240:r=50:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
  const ass = path.join(dir, 'cap.ass');
  writeFileSync(ass, toBurnedCaptions([{ startSeconds: 0, endSeconds: 2, text: 'Hola' }]));
  const capped = new FfmpegMediaEngine({ videoCap: { resolution: 120, fps: 25 } });
  const out = path.join(dir, 'capped.mp4');
  expect(await capped.muxVideo(spec(source, { burnCaptions: ass }), out)).toMatchObject({ copied: false, videoCodec: 'h264' });
  const video = (await streams(out)).find((s) => s.codec_type === 'video')!;
  expect([video.width, video.height, video.avg_frame_rate]).toEqual([160, 120, '25/1']);
  expect(Number(video.nb_read_frames)).toBeGreaterThanOrEqual(49);
  expect(Number(video.nb_read_frames)).toBeLessThanOrEqual(51);
});

describe('capFilters', () => {
  const cap = { resolution: 1080, fps: 30 };
  it('scales a 4K 60 fps picture to 1080p 30 fps', () => {
    expect(capFilters({ width: 3840, height: 2160, fps: 60 }, cap)).toEqual(['fps=30', 'scale=1920:1080']);
  });
  it('caps the shorter side, so a portrait video is capped like a landscape one', () => {
    expect(capFilters({ width: 2160, height: 3840, fps: 30 }, cap)).toEqual(['scale=1080:1920']);
    expect(capFilters({ width: 1080, height: 1920, fps: 30 }, cap)).toEqual([]);
  });
  it('never scales up nor adds frames, and keeps 29.97 fps', () => {
    expect(capFilters({ width: 640, height: 360, fps: 24 }, cap)).toEqual([]);
    expect(capFilters({ width: 1920, height: 1080, fps: 30000 / 1001 }, cap)).toEqual([]);
    expect(capFilters(null, cap)).toEqual([]);
  });
  it('keeps both sides even and within the cap, the shape within two pixels', () => {
    expect(capFilters({ width: 2047, height: 1081, fps: 25 }, cap)).toEqual(['scale=2044:1080']);
    expect(capFilters({ width: 1000, height: 999, fps: 25 }, { resolution: 333, fps: 25 })).toEqual(['scale=332:332']);
  });
});

describe('videoMuxPlan', () => {
  const plan = (videoCodec: string, audioCodec: string | null, burn?: string, dubCodec = 'mp3') =>
    videoMuxPlan(spec('/s.mp4', { burnCaptions: burn }), { videoCodec, audioCodec, dubCodec }, '/o.mp4', '/fonts/DejaVuSans.ttf');

  it.each(['h264', 'hevc', 'mpeg4', 'av1'])('copies %s', (codec) => {
    expect(plan(codec, 'aac')).toMatchObject({ copied: true, videoCodec: codec });
  });
  it.each(['vp8', 'vp9', 'theora', 'mpeg2video'])('re-encodes %s to H.264', (codec) => {
    const p = plan(codec, 'aac');
    expect(p).toMatchObject({ copied: false, videoCodec: 'h264' });
    expect(p.args.join(' ')).toContain('-c:v libx264');
  });
  it('tags HEVC as hvc1, which Apple players need', () => {
    expect(plan('hevc', 'aac').args.join(' ')).toContain('-tag:v hvc1');
  });
  it('copies an AAC or MP3 original, encodes any other', () => {
    expect(plan('h264', 'aac').args.join(' ')).toContain('-c:a:1 copy');
    expect(plan('h264', 'mp3').args.join(' ')).toContain('-c:a:1 copy');
    expect(plan('h264', 'opus').args.join(' ')).toContain('-c:a:1 aac');
  });
  it('copies the published MP3 as the dub track, encodes a WAV to AAC', () => {
    expect(plan('h264', 'aac').args.join(' ')).toContain('-c:a:0 copy');
    expect(plan('h264', 'aac', undefined, 'pcm_s16le').args.join(' ')).toContain('-c:a:0 aac');
  });
  it('re-encodes a copyable picture when captions are burned, with the installed font', () => {
    const p = plan('h264', 'aac', '/c.srt');
    expect(p.copied).toBe(false);
    expect(p.args.join(' ')).toMatch(/subtitles=filename=.*c\.srt.*fontsdir=.*\/fonts.*force_style=.*DejaVu Sans/);
  });
  it('caps a picture it encodes, before the captions are drawn; a copied one is kept as it is', () => {
    const uhd = { width: 3840, height: 2160, fps: 60 };
    const burned = videoMuxPlan(spec('/s.mp4', { burnCaptions: '/c.ass' }), { videoCodec: 'h264', audioCodec: 'aac', dubCodec: 'mp3', picture: uhd }, '/o.mp4', undefined);
    expect(burned.args[burned.args.indexOf('-vf') + 1]).toMatch(/^fps=30,scale=1920:1080,subtitles=/);
    const vp9 = videoMuxPlan(spec('/s.mp4'), { videoCodec: 'vp9', audioCodec: 'aac', dubCodec: 'mp3', picture: uhd }, '/o.mp4', undefined, { resolution: 720, fps: 60 });
    expect(vp9.args[vp9.args.indexOf('-vf') + 1]).toBe('scale=1280:720');
    const copied = videoMuxPlan(spec('/s.mp4'), { videoCodec: 'h264', audioCodec: 'aac', dubCodec: 'mp3', picture: uhd }, '/o.mp4', undefined);
    expect(copied.args).not.toContain('-vf');
  });
  it('writes the index first', () => {
    expect(plan('h264', 'aac').args.join(' ')).toContain('-movflags +faststart');
  });
});

describe('iso6392', () => {
  it.each([
    ['es_es', 'spa'],
    ['en_us', 'eng'],
    ['pt-BR', 'por'],
    ['zh_cn', 'zho'],
    ['de_de', 'deu'],
    ['xx_yy', 'und'],
  ])('%s → %s', (locale, code) => {
    expect(iso6392(locale)).toBe(code);
  });
});

it('takes the dub codec the caller wrote instead of probing the dub again, and muxes the same tracks', async () => {
  const source = path.join(dir, 'picture.mp4');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:s=160x120:r=25:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
  const mp3 = path.join(dir, 'dub.mp3');
  await ffmpeg(['-i', dub, '-c:a', 'libmp3lame', '-b:a', '128k', mp3]);
  // ffprobe behind a script that writes down each file it is asked about.
  const log = path.join(dir, 'probed.log');
  const counting = path.join(dir, 'ffprobe-counting');
  writeFileSync(counting, `#!/bin/bash\necho "\${@: -1}" >> "${log}"\nexec ffprobe "$@"\n`, { mode: 0o755 });
  const probed = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((f) => path.basename(f))
      : [];
  const engine = new FfmpegMediaEngine({ ffprobePath: counting });

  const told = await engine.muxVideo({ ...spec(source), dubAudio: mp3, dubCodec: 'mp3' }, path.join(dir, 'told.mp4'));
  expect(probed()).toEqual(['picture.mp4']);
  const probing = await engine.muxVideo({ ...spec(source), dubAudio: mp3 }, path.join(dir, 'probed.mp4'));
  expect(probed()).toEqual(['picture.mp4', 'picture.mp4', 'dub.mp3']);
  expect(told).toEqual(probing);
  const tracks = async (file: string) => (await streams(file)).map((s) => [s.codec_type, s.codec_name, s.tags?.language ?? null]);
  expect(await tracks(path.join(dir, 'told.mp4'))).toEqual(await tracks(path.join(dir, 'probed.mp4')));
  expect((await tracks(path.join(dir, 'told.mp4')))[1]).toEqual(['audio', 'mp3', 'spa']);
});
