import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FfmpegMediaEngine } from '../../../../src/engines/media/ffmpeg-media-engine';
import { silentWav } from '../../../../src/engines/tts/wav-file';
import { decodeSamples, ffprobe, makeTempDir, makeTone, removeTempDir, rms } from '../../../helpers/media-fixtures';

// Tones instead of speech: their level is steady, so "is there sound here?" has a clear answer.

const media = new FfmpegMediaEngine();
const RATE = 8000;
let dir: string;
let toneA: string; // 1.5 s
let toneB: string; // 1.0 s
let hum: string; // 6 s, the "source audio" under the dub
let toneLevel: number; // rms of a tone on its own (lavfi sine is at 1/8 of full scale)

beforeAll(async () => {
  dir = makeTempDir('timeline');
  [toneA, toneB, hum] = await Promise.all([makeTone(path.join(dir, 'a.wav'), 1.5, 440), makeTone(path.join(dir, 'b.wav'), 1.0, 660, 16000), makeTone(path.join(dir, 'hum.wav'), 6, 220, 48000)]);
  toneLevel = rms(await decodeSamples(toneA, RATE), RATE, 0.1, 1.4);
});

afterAll(() => removeTempDir(dir));

it('places clips at their offsets on a timeline exactly the requested length', async () => {
  const out = path.join(dir, 'placed.wav');
  await media.renderTimeline(
    {
      clips: [
        { file: toneA, startSeconds: 0.5 },
        { file: toneB, startSeconds: 3 },
      ],
      durationSeconds: 5,
    },
    out,
  );
  const info = await ffprobe(out);
  expect(Math.abs(info.durationSeconds - 5) / 5).toBeLessThan(0.02);
  expect(info.streams[0]!.sample_rate).toBe('48000');

  const samples = await decodeSamples(out, RATE);
  expect(rms(samples, RATE, 0, 0.45)).toBeLessThan(0.001); // before the first clip
  expect(rms(samples, RATE, 0.55, 1.95)).toBeGreaterThan(toneLevel * 0.9); // all of clip A
  expect(rms(samples, RATE, 2.05, 2.95)).toBeLessThan(0.001); // the gap
  expect(rms(samples, RATE, 3.05, 3.95)).toBeGreaterThan(toneLevel * 0.9); // clip B
  expect(rms(samples, RATE, 4.05, 5)).toBeLessThan(0.001); // tail
});

it('does not lower the level of each clip by the number of clips', async () => {
  const out = path.join(dir, 'many.wav');
  const clips = Array.from({ length: 8 }, (_, i) => ({ file: toneB, startSeconds: i * 1.1 }));
  await media.renderTimeline({ clips, durationSeconds: 9 }, out);
  const samples = await decodeSamples(out, RATE);
  // Every clip keeps its own level: amix's default would divide it by the 9 inputs.
  for (let i = 0; i < 8; i++) expect(rms(samples, RATE, i * 1.1 + 0.1, i * 1.1 + 0.9)).toBeGreaterThan(toneLevel * 0.9);
});

it('cuts a clip only where it passes the end of the timeline, and pads with silence', async () => {
  const out = path.join(dir, 'cut.wav');
  await media.renderTimeline(
    {
      clips: [
        { file: toneA, startSeconds: 2 },
        { file: toneB, startSeconds: 9 },
      ],
      durationSeconds: 2.5,
    },
    out,
  );
  const info = await ffprobe(out);
  expect(Math.abs(info.durationSeconds - 2.5) / 2.5).toBeLessThan(0.02);
  const samples = await decodeSamples(out, RATE);
  expect(rms(samples, RATE, 2.05, 2.45)).toBeGreaterThan(toneLevel * 0.9);
});

it('mixes the background under the clips at the requested volume', async () => {
  const out = path.join(dir, 'with-background.wav');
  const background = await media.extractBackground(hum, path.join(dir, 'background.wav'));
  expect(background).not.toBeNull();
  await media.renderTimeline({ clips: [{ file: toneA, startSeconds: 1 }], durationSeconds: 4, background: { file: background!, volume: 0.15 } }, out);
  const info = await ffprobe(out);
  expect(Math.abs(info.durationSeconds - 4) / 4).toBeLessThan(0.02);

  const samples = await decodeSamples(out, RATE);
  const humLevel = rms(await decodeSamples(hum, RATE), RATE, 0, 4);
  const underOnly = rms(samples, RATE, 0.1, 0.9);
  expect(underOnly).toBeGreaterThan(humLevel * 0.12);
  expect(underOnly).toBeLessThan(humLevel * 0.18);
  expect(rms(samples, RATE, 1.1, 2.4)).toBeGreaterThan(underOnly * 3); // the dub is on top
});

it('accepts an empty clip (what a blank sentence synthesizes to) among real ones', async () => {
  const empty = path.join(dir, 'empty-clip.wav');
  writeFileSync(empty, silentWav(22050));
  const out = path.join(dir, 'with-empty.wav');
  await media.renderTimeline(
    {
      clips: [
        { file: empty, startSeconds: 0.2 },
        { file: toneB, startSeconds: 1 },
      ],
      durationSeconds: 2.5,
    },
    out,
  );
  const samples = await decodeSamples(out, RATE);
  expect(Math.abs((await ffprobe(out)).durationSeconds - 2.5) / 2.5).toBeLessThan(0.02);
  expect(rms(samples, RATE, 1.05, 1.95)).toBeGreaterThan(toneLevel * 0.9);
});

it('renders silence of the full length when there are no clips', async () => {
  const out = path.join(dir, 'empty.wav');
  await media.renderTimeline({ clips: [], durationSeconds: 3 }, out);
  const info = await ffprobe(out);
  expect(Math.abs(info.durationSeconds - 3) / 3).toBeLessThan(0.02);
  expect(rms(await decodeSamples(out, RATE), RATE, 0, 3)).toBe(0);
});

it('refuses a timeline without a positive length', async () => {
  await expect(media.renderTimeline({ clips: [], durationSeconds: 0 }, path.join(dir, 'never.wav'))).rejects.toBeInstanceOf(RangeError);
});

it('speeds a clip up inside the render: a 1.5 s clip at tempo 1.5 sounds for 1 s from its start', async () => {
  const out = path.join(dir, 'tempo.wav');
  await media.renderTimeline({ clips: [{ file: toneA, startSeconds: 0.5, tempo: 1.5 }], durationSeconds: 3 }, out);
  const samples = await decodeSamples(out, RATE);
  expect(rms(samples, RATE, 0, 0.45)).toBeLessThan(0.001); // before the clip
  expect(rms(samples, RATE, 0.55, 1.45)).toBeGreaterThan(toneLevel * 0.9); // its 1 s at 1.5×
  expect(rms(samples, RATE, 1.6, 3)).toBeLessThan(0.001); // silent where the unstretched clip would still play
});

describe('clips of one 16-bit mono rate (what the synthesizer writes)', () => {
  let low: string; // 1.5 s, 22.05 kHz
  let high: string; // 1.0 s, 22.05 kHz

  beforeAll(async () => {
    [low, high] = await Promise.all([makeTone(path.join(dir, 'low.wav'), 1.5, 330), makeTone(path.join(dir, 'high.wav'), 1.0, 550)]);
  });

  /** The first sample at or after `fromSeconds` that is clearly sound, in 48 kHz samples. */
  const onset = (samples: Int16Array, fromSeconds: number) => {
    for (let i = Math.round(fromSeconds * 48_000); i < samples.length; i++) if (Math.abs(samples[i]!) > 300) return i;
    return -1;
  };

  it('strings them on one track, each heard from its own sample', async () => {
    const out = path.join(dir, 'same-rate.wav');
    await media.renderTimeline(
      {
        clips: [
          { file: low, startSeconds: 0.5, playedSeconds: 1.5 },
          { file: high, startSeconds: 2.25, playedSeconds: 1 },
        ],
        durationSeconds: 4,
      },
      out,
    );
    expect(Math.abs((await ffprobe(out)).durationSeconds - 4)).toBeLessThan(0.01);
    const full = await decodeSamples(out, 48_000);
    // A sine starts at phase 0, so its first loud sample comes a few samples after the onset.
    expect(onset(full, 0) - 24_000).toBeGreaterThanOrEqual(0);
    expect(onset(full, 0) - 24_000).toBeLessThan(40);
    expect(onset(full, 2.1) - 108_000).toBeGreaterThanOrEqual(0);
    expect(onset(full, 2.1) - 108_000).toBeLessThan(40);
    const samples = await decodeSamples(out, RATE);
    expect(rms(samples, RATE, 0.55, 1.95)).toBeGreaterThan(toneLevel * 0.9);
    expect(rms(samples, RATE, 2.05, 2.2)).toBeLessThan(0.001);
    expect(rms(samples, RATE, 2.3, 3.2)).toBeGreaterThan(toneLevel * 0.9);
    expect(rms(samples, RATE, 3.3, 4)).toBeLessThan(0.001);
  });

  it('mixes a clip that runs into the next sentence over it, both whole', async () => {
    const out = path.join(dir, 'drift.wav');
    await media.renderTimeline(
      {
        clips: [
          { file: low, startSeconds: 0, playedSeconds: 1.5 },
          { file: high, startSeconds: 1, playedSeconds: 1 },
        ],
        durationSeconds: 3,
      },
      out,
    );
    const samples = await decodeSamples(out, RATE);
    expect(rms(samples, RATE, 0.05, 0.95)).toBeGreaterThan(toneLevel * 0.9);
    // Two tones of different pitch at once: about √2 the level of one.
    expect(rms(samples, RATE, 1.05, 1.45)).toBeGreaterThan(toneLevel * 1.3);
    expect(rms(samples, RATE, 1.55, 1.95)).toBeGreaterThan(toneLevel * 0.9);
    expect(rms(samples, RATE, 2.05, 3)).toBeLessThan(0.001);
  });

  it('takes an empty clip (a blank sentence) on the track without moving the next one', async () => {
    const empty = path.join(dir, 'empty-same-rate.wav');
    writeFileSync(empty, silentWav(22050));
    const out = path.join(dir, 'same-rate-empty.wav');
    await media.renderTimeline(
      {
        clips: [
          { file: empty, startSeconds: 0.3, playedSeconds: 0 },
          { file: high, startSeconds: 1, playedSeconds: 1 },
        ],
        durationSeconds: 2.5,
      },
      out,
    );
    expect(Math.abs((await ffprobe(out)).durationSeconds - 2.5)).toBeLessThan(0.01);
    const full = await decodeSamples(out, 48_000);
    expect(onset(full, 0) - 48_000).toBeGreaterThanOrEqual(0);
    expect(onset(full, 0) - 48_000).toBeLessThan(40);
    const samples = await decodeSamples(out, RATE);
    expect(rms(samples, RATE, 1.05, 1.95)).toBeGreaterThan(toneLevel * 0.9);
  });
});
