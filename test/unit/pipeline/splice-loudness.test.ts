import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEbur128Summary } from '../../../src/audio/ebur128';
import { decodeBlocks, encodeBlocks, integratedLoudness, loudnessRange, type LoudnessBlocks } from '../../../src/audio/loudness-blocks';
import type { RecordedLoudness } from '../../../src/audio/program-gain';
import { FfmpegMediaEngine } from '../../../src/engines/media/ffmpeg-media-engine';
import { pcmWavHeader, readWavInfo } from '../../../src/engines/tts/wav-file';
import { spliceLoudness } from '../../../src/pipeline/splice-loudness';
import { ffmpeg, ffmpegStderr, makeTempDir, removeTempDir } from '../../helpers/media-fixtures';

// A regeneration measures its spliced mix again from the frames its spans reach
// (docs/audio.md#regenerations): on real ffmpeg measurements, the figures it gates from the
// recorded series with those frames replaced equal the whole spliced mix's, measured whole.

const media = new FfmpegMediaEngine();
const RATE = 48_000;
const SECONDS = 40;
let dir: string;
let original: string;
let originalBlocks: LoudnessBlocks;

/** A mix whose loudness moves: two tones under slow envelopes, with pauses. */
const VARYING = "aevalsrc='0.5*sin(2*PI*300*t)*abs(sin(2*PI*0.11*t))*gt(sin(2*PI*0.7*t),-0.4)|0.3*sin(2*PI*500*t)*abs(sin(2*PI*0.07*t))'";

const pcmOf = (file: string) => {
  const wav = readFileSync(file);
  const info = readWavInfo(wav);
  return wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
};

beforeAll(async () => {
  dir = makeTempDir('splice-loudness');
  original = path.join(dir, 'original.wav');
  await ffmpeg(['-f', 'lavfi', '-i', `${VARYING}:d=${SECONDS}:s=${RATE}`, '-c:a', 'pcm_s16le', original]);
  originalBlocks = await media.measureLoudnessBlocks(original);
}, 60_000);
afterAll(() => removeTempDir(dir));

/** The original with each span's samples replaced by a louder tone. */
function spliced(spans: { fromSample: number; toSample: number }[]): { file: string; pcm: Buffer } {
  const pcm = Buffer.from(pcmOf(original));
  for (const span of spans) {
    for (let i = span.fromSample; i < span.toSample; i++) {
      const value = Math.round(20_000 * Math.sin((2 * Math.PI * 800 * i) / RATE));
      pcm.writeInt16LE(value, i * 4);
      pcm.writeInt16LE(value, i * 4 + 2);
    }
  }
  const file = path.join(dir, `spliced-${spans.map((s) => s.fromSample).join('-')}.wav`);
  writeFileSync(file, Buffer.concat([pcmWavHeader(RATE, pcm.length, 2), pcm]));
  return { file, pcm };
}

const recorded = (preset: RecordedLoudness['preset']): RecordedLoudness & { blocks: NonNullable<RecordedLoudness['blocks']> } => ({
  preset,
  gainDb: 0,
  limiter: null,
  measured: { integratedLufs: integratedLoudness(originalBlocks), rangeLu: loudnessRange(originalBlocks), truePeakDbtp: -3 },
  blocks: encodeBlocks(originalBlocks),
});

it("gates a mix's frames to the integrated loudness and range ebur128 reports for it", async () => {
  const summary = parseEbur128Summary(await ffmpegStderr(['-nostats', '-v', 'info', '-i', original, '-af', 'ebur128', '-f', 'null', '-']))!;
  expect(originalBlocks.momentary).toHaveLength(SECONDS * 10);
  // ebur128's summary is printed to 0.1 LU.
  expect(Math.abs(integratedLoudness(originalBlocks) - summary.integratedLufs)).toBeLessThanOrEqual(0.051);
  expect(Math.abs(loudnessRange(originalBlocks) - summary.rangeLu)).toBeLessThanOrEqual(0.051);
  expect(summary.rangeLu).toBeGreaterThan(3);
});

it('measures only around the spans and gets what measuring the whole spliced mix gets', async () => {
  // At the very start, twice in the middle with overlapping reach, and up to the end.
  const at = (seconds: number) => Math.round(seconds * RATE);
  const spans = [
    { fromSample: 0, toSample: at(0.73) },
    { fromSample: at(12.345), toSample: at(15.678) },
    { fromSample: at(17.01), toSample: at(17.5) },
    { fromSample: at(38.2), toSample: at(SECONDS) },
  ];
  const { file, pcm } = spliced(spans);
  const whole = await media.measureLoudnessBlocks(file);
  const measuredSeconds: number[] = [];
  const counted = {
    measureLoudnessBlocks: async (wav: string) => {
      measuredSeconds.push(readWavInfo(readFileSync(wav)).durationSeconds);
      return media.measureLoudnessBlocks(wav);
    },
  };
  const result = await spliceLoudness(counted, {
    recorded: recorded('none'),
    spans: spans.map((span) => ({ span, measured: { integratedLufs: -20, rangeLu: 0, truePeakDbtp: -1.5 } })),
    samples: SECONDS * RATE,
    readPcm: async (from, to) => pcm.subarray(from * 4, to * 4),
    workDir: dir,
    onTick: () => undefined,
  });

  expect(result.loudness.measured.integratedLufs).toBeCloseTo(integratedLoudness(whole), 2);
  expect(result.loudness.measured.rangeLu).toBeCloseTo(loudnessRange(whole), 2);
  // The splice moved the figures: the test would not pass on the recorded ones.
  expect(Math.abs(result.loudness.measured.integratedLufs - integratedLoudness(originalBlocks))).toBeGreaterThan(1);
  // Every frame as the whole measurement has it (stored to 0.01 LU).
  const { momentary, shortTerm } = decodeBlocks(result.loudness.blocks!);
  const audible = (series: number[]) => series.map((v) => Math.max(v, -70));
  audible(momentary).forEach((v, i) => expect(Math.abs(v - Math.max(whole.momentary[i]!, -70))).toBeLessThan(0.011));
  audible(shortTerm).forEach((v, i) => expect(Math.abs(v - Math.max(whole.shortTerm[i]!, -70))).toBeLessThan(0.011));
  // Three measurements (the middle spans' reach overlaps), of less than half the mix.
  expect(measuredSeconds).toHaveLength(3);
  expect(measuredSeconds.reduce((a, b) => a + b, 0)).toBeLessThan(SECONDS / 2);
  // The true peak is the higher of the published one and the spans'.
  expect(result.loudness.measured.truePeakDbtp).toBe(-1.5);
  expect(result.refusal).toBeNull();
}, 60_000);

it('refuses a spliced mix that left its preset’s target, naming it', async () => {
  const span = { fromSample: 5 * RATE, toSample: 25 * RATE };
  const { pcm } = spliced([span]);
  const result = await spliceLoudness(media, {
    recorded: { ...recorded('web'), measured: { ...recorded('web').measured, integratedLufs: -16 } },
    spans: [{ span, measured: { integratedLufs: -10, rangeLu: 0, truePeakDbtp: -3.5 } }],
    samples: SECONDS * RATE,
    readPcm: async (from, to) => pcm.subarray(from * 4, to * 4),
    workDir: dir,
    onTick: () => undefined,
  });
  expect(result.refusal).toMatch(/^the spliced mix measures -?\d+(\.\d+)? LUFS, off its -16 LUFS target$/);
}, 60_000);
