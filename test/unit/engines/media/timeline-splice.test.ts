import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DUCK_SHAPE } from '../../../../src/pipeline/dub-timeline';
import { spliceMp3 } from '../../../../src/pipeline/splice-mp3';
import { envelopeReachSeconds } from '../../../../src/engines/media/duck-envelope';
import { createLocalEngines } from '../../../../src/engines';
import { crc16 } from '../../../../src/engines/media/crc16';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import type { TimelineClip, TimelineSpan } from '../../../../src/engines/media/media-engine';
import { planMp3Splice, readMp3Layout, mp3Reencode } from '../../../../src/engines/media/mp3-frames';
import { spliceSpans } from '../../../../src/engines/media/splice-spans';
import { pcmWavHeader, readWavInfo } from '../../../../src/engines/tts/wav-file';
import { LocalBlobStore } from '../../../../src/storage/local-blob-store';
import { ffmpeg, makeTempDir, removeTempDir, speak } from '../../../helpers/media-fixtures';

// What a regeneration's splice relies on (docs/editing.md#regenerate), on real ffmpeg output:
// a span of the timeline mixed again is, sample for sample, the whole new mix there; and the
// published MP3 with the frames over that span swapped decodes cleanly, to the same length,
// close to a whole new encode and untouched elsewhere.

const media = new FfmpegMediaEngine();
const RATE = 48_000;
const DURATION = 20.5;
let dir: string;
let store: LocalBlobStore;
let clips: Record<string, string>;
let backgroundFile: string;
let stereoBackgroundFile: string;

beforeAll(async () => {
  dir = makeTempDir('timeline-splice');
  store = new LocalBlobStore(path.join(dir, 'store'));
  const say = async (name: string, text: string) => [name, await speak(text, path.join(dir, `${name}.wav`), 'es')] as const;
  clips = Object.fromEntries(
    await Promise.all([
      say('a', 'Hola a todos y bienvenidos a la cocina.'),
      say('b', 'Hoy cocinamos arroz con verduras.'),
      say('c', 'Primero lavamos el arroz.'),
      say('c2', 'Primero cortamos las cebollas y las zanahorias.'),
      say('d', 'Gracias por mirar.'),
    ]),
  );
  // The source audio under the dub: a tone and some noise, 48 kHz 16-bit stereo as extractBackground writes it.
  backgroundFile = path.join(dir, 'background.wav');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `sine=f=220:d=${DURATION + 1}`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=d=${DURATION + 1}:a=0.1`,
    '-filter_complex',
    '[0][1]amix=inputs=2,pan=stereo|c0=c0|c1=c0',
    '-ar',
    '48000',
    '-c:a',
    'pcm_s16le',
    backgroundFile,
  ]);
  // A stereo one: the tone in the centre, the noise only on the left.
  stereoBackgroundFile = path.join(dir, 'background-stereo.wav');
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `sine=f=220:d=${DURATION + 1}`,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=d=${DURATION + 1}:a=0.1`,
    '-filter_complex',
    '[0][1]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=c0',
    '-ar',
    '48000',
    '-c:a',
    'pcm_s16le',
    stereoBackgroundFile,
  ]);
}, 60_000);
afterAll(() => removeTempDir(dir));

/** A clip placed as a render places it: played for its length at its tempo. */
function play(name: string, startSeconds: number, tempo = 1): TimelineClip {
  const file = clips[name]!;
  return { file, startSeconds, tempo: tempo === 1 ? undefined : tempo, playedSeconds: readWavInfo(readFileSync(file)).durationSeconds / tempo };
}

const before = () => [play('a', 0.5), play('b', 5.3, 1.2), play('c', 10.77), play('d', 19.3)]; // d is cut by the end of the timeline

/** How the background is laid under the clips: at 0.15, ducked under `placed` when asked (docs/background.md). */
const under = (file: string, placed: TimelineClip[], duck?: 'mono' | 'stereo') => ({
  file,
  volume: 0.15,
  ...(duck ? { duck: { ...DUCK_SHAPE, removeCentre: duck === 'stereo', speech: placed.map(stretch) } } : {}),
});

async function wholeMix(name: string, placed: TimelineClip[], duck?: 'mono' | 'stereo'): Promise<{ wav: Buffer; mp3: string; pcm: Buffer }> {
  const mp3 = path.join(dir, `${name}.mp3`);
  const wavFile = path.join(dir, `${name}.wav`);
  await media.renderTimelineToMp3AndWav({ clips: placed, durationSeconds: DURATION, background: under(duck === 'stereo' ? stereoBackgroundFile : backgroundFile, placed, duck) }, mp3, wavFile);
  const wav = readFileSync(wavFile);
  const info = readWavInfo(wav);
  return { wav, mp3, pcm: wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes) };
}

/** The span mixed again as a regeneration does: its clips, and the background's samples of it alone. */
async function mixSpan(name: string, placed: TimelineClip[], span: TimelineSpan, duck?: 'mono' | 'stereo'): Promise<Buffer> {
  const background = readFileSync(duck === 'stereo' ? stereoBackgroundFile : backgroundFile);
  const info = readWavInfo(background);
  const slice = background.subarray(info.dataOffset + span.fromSample * 4, info.dataOffset + span.toSample * 4);
  const sliceFile = path.join(dir, `${name}-background.wav`);
  writeFileSync(sliceFile, Buffer.concat([pcmWavHeader(RATE, slice.length, 2), slice]));
  const inside = placed.filter((c) => c.startSeconds * RATE >= span.fromSample && c.startSeconds * RATE < span.toSample);
  const out = path.join(dir, `${name}-span.wav`);
  // Ducked under every clip of the whole timeline, not only the span's.
  await media.renderTimeline({ clips: inside, durationSeconds: DURATION, background: under(sliceFile, placed, duck), span }, out);
  const wav = readFileSync(out);
  const spanInfo = readWavInfo(wav);
  return wav.subarray(spanInfo.dataOffset, spanInfo.dataOffset + spanInfo.dataBytes);
}

const stretch = (c: TimelineClip) => ({ startSeconds: c.startSeconds, endSeconds: c.startSeconds + c.playedSeconds! });

/** Decoded 48 kHz stereo samples, failing on any decoding error. */
const decode = async (mp3: string) => ffmpeg(['-xerror', '-i', mp3, '-f', 's16le', '-ac', '2', '-ar', '48000', 'pipe:1']);

function snrDb(signal: Buffer, approximation: Buffer): number {
  let power = 0;
  let noise = 0;
  for (let i = 0; i + 1 < signal.length; i += 2) {
    const s = signal.readInt16LE(i);
    power += s * s;
    noise += (s - approximation.readInt16LE(i)) ** 2;
  }
  return 10 * Math.log10(power / noise);
}

describe.each([
  ['a line in the middle, its new clip longer and sped up', 2, () => play('c2', 10.77, 1.1)],
  ['the last line, cut by the end of the timeline', 3, () => play('c2', 19.3, 1.3)],
  ['the first line, at the very start', 0, () => play('c2', 0.02, 1.05)],
] as const)('a changed clip: %s', (_name, index, changed) => {
  let published: Awaited<ReturnType<typeof wholeMix>>;
  let wanted: Awaited<ReturnType<typeof wholeMix>>;
  let span: TimelineSpan;
  let spliced: Buffer;
  const tag = `case-${index}`;

  beforeAll(async () => {
    const old = before();
    const now = old.map((c, i) => (i === index ? changed() : c));
    published = await wholeMix(`${tag}-published`, old);
    wanted = await wholeMix(`${tag}-wanted`, now);
    const spans = spliceSpans([stretch(old[index]!), stretch(now[index]!)], now.map(stretch), published.pcm.length / 4);
    expect(spans).toHaveLength(1);
    span = spans[0]!;
    spliced = Buffer.from(published.wav);
    (await mixSpan(tag, now, span)).copy(spliced, readWavInfo(published.wav).dataOffset + span.fromSample * 4);
  }, 60_000);

  it('the span mixed again, written over the published WAV, is the whole new mix to the sample; the rest is untouched', () => {
    expect(span.toSample - span.fromSample).toBeLessThan(published.pcm.length / 4 / 2);
    // Exactly equal, not merely close: the span's clips land on the samples the whole mix puts
    // them on, the resampler starts in phase, and at each edge both mixes are the background alone.
    expect(spliced.equals(wanted.wav)).toBe(true);
    const offset = readWavInfo(published.wav).dataOffset;
    expect(spliced.subarray(0, offset + span.fromSample * 4).equals(published.wav.subarray(0, offset + span.fromSample * 4))).toBe(true);
    expect(spliced.subarray(offset + span.toSample * 4).equals(published.wav.subarray(offset + span.toSample * 4))).toBe(true);
    expect(spliced.subarray(offset + span.fromSample * 4, offset + span.toSample * 4).equals(published.wav.subarray(offset + span.fromSample * 4, offset + span.toSample * 4))).toBe(false);
  });

  it('the MP3 with the frames over the span swapped decodes cleanly to the same length, close to a whole new encode, and is untouched elsewhere', async () => {
    await store.putFile(`${tag}/r1/dub.mp3`, published.mp3);
    const wavKey = `${tag}/r1/dub.wav`;
    writeFileSync(path.join(dir, `${tag}-published-copy.wav`), published.wav);
    await store.putFile(wavKey, path.join(dir, `${tag}-published-copy.wav`));
    const dataOffset = readWavInfo(published.wav).dataOffset;
    const spanPcm = spliced.subarray(dataOffset + span.fromSample * 4, dataOffset + span.toSample * 4);
    const result = await spliceMp3(
      { blobStore: store, engines: createLocalEngines() },
      {
        previousMp3: `${tag}/r1/dub.mp3`,
        mp3: `${tag}/r2/dub.mp3`,
        wav: { key: wavKey, dataOffset, samples: published.pcm.length / 4, spans: [{ span, pcm: spanPcm }] },
        workDir: dir,
        onTick: () => undefined,
      },
    );
    expect(result).toMatchObject({ spliced: true });
    const oldMp3 = readFileSync(published.mp3);
    const newMp3 = readFileSync(store.pathOf(`${tag}/r2/dub.mp3`));
    expect(newMp3.length).toBe(oldMp3.length);

    // Only frames near the span changed, and the tag's checksums hold for the new frames.
    const layout = readMp3Layout(newMp3.subarray(0, 16_384), newMp3.length)!;
    const changedFrames: number[] = [];
    for (let f = 0; f < layout.frames; f++) {
      const at = layout.audioOffset + f * layout.frameBytes;
      if (!newMp3.subarray(at, at + layout.frameBytes).equals(oldMp3.subarray(at, at + layout.frameBytes))) changedFrames.push(f);
    }
    const reach = mp3Reencode(span, published.pcm.length / 4, layout.frames);
    expect(changedFrames.length).toBeGreaterThan(0);
    expect(changedFrames[0]).toBeGreaterThanOrEqual(reach.firstFrame);
    expect(changedFrames.at(-1)).toBeLessThan(reach.firstFrame + reach.wholeFrames + 8);
    expect(changedFrames.length).toBeLessThanOrEqual((result as { frames: number }).frames); // a swapped frame may come out the same
    expect(newMp3.readUInt16BE(layout.tag!.frameOffset + layout.tag!.musicCrcOffset)).toBe(crc16(newMp3.subarray(layout.audioOffset)));
    expect(readMp3Layout(newMp3.subarray(0, 16_384), newMp3.length)!.tag).not.toBeNull(); // the tag's own checksum holds

    const [oldPcm, newPcm, wholePcm] = await Promise.all([decode(published.mp3), decode(store.pathOf(`${tag}/r2/dub.mp3`)), decode(wanted.mp3)]);
    expect(newPcm.length).toBe(oldPcm.length);
    expect(newPcm.length).toBe(wholePcm.length);
    // Decoded, the spliced MP3 is the old one outside the swapped frames (and a frame either side).
    const frameSamples = 1152 * 4;
    const firstChanged = Math.max(0, (changedFrames[0]! - 2) * frameSamples);
    const lastChanged = Math.min(newPcm.length, (changedFrames.at(-1)! + 2) * frameSamples);
    expect(newPcm.subarray(0, firstChanged).equals(oldPcm.subarray(0, firstChanged))).toBe(true);
    expect(newPcm.subarray(lastChanged).equals(oldPcm.subarray(lastChanged))).toBe(true);
    // Over the span it is as faithful to the mix as a whole new encode is (lossy either way).
    const wantedSpan = wanted.pcm.subarray(span.fromSample * 4, span.toSample * 4);
    const splicedSnr = snrDb(wantedSpan, newPcm.subarray(span.fromSample * 4, span.toSample * 4));
    const wholeSnr = snrDb(wantedSpan, wholePcm.subarray(span.fromSample * 4, span.toSample * 4));
    expect(splicedSnr).toBeGreaterThan(wholeSnr - 1);
  }, 60_000);
});

describe.each([
  ['a mono original', 'mono'],
  ['a stereo original, its centre taken out under speech', 'stereo'],
] as const)('a changed clip over a ducked background: %s', (_name, duck) => {
  it("the span, widened by the envelope's reach and mixed again, written over the published WAV, is the whole new mix to the sample", async () => {
    const old = before();
    // A longer clip in the middle: its fades move, and so does the held pause before the next clip.
    const now = old.map((c, i) => (i === 2 ? play('c2', 10.77, 1.1) : c));
    const published = await wholeMix(`duck-${duck}-published`, old, duck);
    const wanted = await wholeMix(`duck-${duck}-wanted`, now, duck);
    const reach = envelopeReachSeconds(DUCK_SHAPE);
    const widened = [stretch(old[2]!), stretch(now[2]!)].map((s) => ({ startSeconds: s.startSeconds - reach, endSeconds: s.endSeconds + reach }));
    const spans = spliceSpans(widened, now.map(stretch), published.pcm.length / 4);
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.toSample - span.fromSample).toBeLessThan(published.pcm.length / 4 / 2);
    const spliced = Buffer.from(published.wav);
    (await mixSpan(`duck-${duck}`, now, span, duck)).copy(spliced, readWavInfo(published.wav).dataOffset + span.fromSample * 4);
    expect(spliced.equals(wanted.wav)).toBe(true);
    // And the ducking did something: the same timeline over the background kept whole differs.
    expect((await wholeMix(`duck-${duck}-kept`, now)).pcm.equals(wanted.pcm)).toBe(false);
  }, 60_000);
});

it('refuses to swap frames of an MP3 whose frames borrow bits from earlier ones (encoded with the bit reservoir)', async () => {
  const { wav } = await wholeMix('reservoir', before());
  const wavFile = path.join(dir, 'reservoir-source.wav');
  writeFileSync(wavFile, wav);
  const mp3 = path.join(dir, 'reservoir.mp3');
  await ffmpeg(['-i', wavFile, '-c:a', 'libmp3lame', '-b:a', '128k', mp3]);
  const bytes = readFileSync(mp3);
  const layout = readMp3Layout(bytes.subarray(0, 16_384), bytes.length)!;
  expect(layout).not.toBeNull();
  const run = (from: number, to: number) => ({ firstFrame: from, bytes: bytes.subarray(layout.audioOffset + from * layout.frameBytes, layout.audioOffset + to * layout.frameBytes) });
  // The published file's own frames as the "fresh" run: only the reservoir can make this unsound.
  expect(planMp3Splice({ layout, fresh: run(100, 140), freshWholeFrames: 40, published: run(100, 140), need: { from: 115, to: 125 } })).toBeNull();
});
