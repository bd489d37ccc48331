import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { ffmpeg, makeTempDir, makeVideo, removeTempDir } from '../../../helpers/media-fixtures';

const media = new FfmpegMediaEngine();
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const NASTY_TITLE = `L'été: 100% "réussi" \\ back\\slash, [x]; {y} %{pts} $HOME \`id\` — niño ${'very long title '.repeat(8)}`;
let dir: string;
let video: string;

beforeAll(async () => {
  dir = makeTempDir('thumbnail');
  video = await makeVideo(path.join(dir, 'green.mp4'), 3, undefined, 'green');
});

afterAll(() => removeTempDir(dir));

/** Width and height from the IHDR chunk, which always follows the signature. */
function pngSize(file: string): { width: number; height: number; magic: Buffer } {
  const bytes = readFileSync(file);
  return { magic: bytes.subarray(0, 8), width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** RGB pixels of the PNG, via ffmpeg. */
async function pixels(file: string): Promise<Buffer> {
  return ffmpeg(['-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
}

function pixelAt(rgb: Buffer, width: number, x: number, y: number): [number, number, number] {
  const i = (y * width + x) * 3;
  return [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
}

/** Count of near-white pixels: the title is drawn in white. */
function whitePixels(rgb: Buffer): number {
  let count = 0;
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i]! > 200 && rgb[i + 1]! > 200 && rgb[i + 2]! > 200) count++;
  return count;
}

it('takes a frame from the video, letterboxed to 1280×720, with the title drawn on it', async () => {
  const out = path.join(dir, 'video-thumb.png');
  await media.thumbnail({ source: video, hasVideo: true, atSeconds: 1.5, title: NASTY_TITLE }, out);
  const { magic, width, height } = pngSize(out);
  expect(magic.equals(PNG_MAGIC)).toBe(true);
  expect({ width, height }).toEqual({ width: 1280, height: 720 });

  const rgb = await pixels(out);
  const [r, g, b] = pixelAt(rgb, 1280, 640, 100); // centre top: the green frame
  expect(g).toBeGreaterThan(100);
  expect(r).toBeLessThan(60);
  expect(b).toBeLessThan(60);
  expect(pixelAt(rgb, 1280, 10, 100)).toEqual([0, 0, 0]); // letterbox bar: 4:3 inside 16:9
  expect(whitePixels(rgb)).toBeGreaterThan(2000);
});

it('renders a card with the title for an audio-only source', async () => {
  const out = path.join(dir, 'card.png');
  await media.thumbnail({ source: path.join(dir, 'unused.wav'), hasVideo: false, atSeconds: 0, title: NASTY_TITLE, width: 640, height: 360 }, out);
  const { magic, width, height } = pngSize(out);
  expect(magic.equals(PNG_MAGIC)).toBe(true);
  expect({ width, height }).toEqual({ width: 640, height: 360 });
  const rgb = await pixels(out);
  // The card colour 0x1e293b, give or take YUV rounding.
  pixelAt(rgb, 640, 5, 5).forEach((channel, i) => expect(Math.abs(channel - [0x1e, 0x29, 0x3b][i]!)).toBeLessThanOrEqual(4));
  expect(whitePixels(rgb)).toBeGreaterThan(500);
});

it('draws nothing white on a card without a title (so the title test above means something)', async () => {
  const out = path.join(dir, 'blank-card.png');
  await media.thumbnail({ source: '', hasVideo: false, atSeconds: 0, title: '   ' }, out);
  expect(whitePixels(await pixels(out))).toBe(0);
});

it('falls back to a frame before the end when asked for a time past it', async () => {
  const out = path.join(dir, 'late.png');
  await media.thumbnail({ source: video, hasVideo: true, atSeconds: 60, title: 'Late' }, out);
  const rgb = await pixels(out);
  expect(pixelAt(rgb, 1280, 640, 100)[1]).toBeGreaterThan(100);
});
