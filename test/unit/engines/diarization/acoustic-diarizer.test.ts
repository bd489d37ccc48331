import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AcousticDiarizer } from '../../../../src/engines/diarization/acoustic-diarizer';
import { DiarizationTimeoutError } from '../../../../src/engines/diarization/pacer';
import { makeTempDir, removeTempDir } from '../../../helpers/media-fixtures';
import { HIGH_VOICE, LOW_VOICE, MIDDLE_VOICE, silence, syntheticSpeech, wavOf } from '../../../helpers/synthetic-voices';

// The acoustic diarizer on synthetic voices (test/helpers/synthetic-voices.ts): a low voice
// (110 Hz), a high one (220 Hz) and one between (160 Hz), each with formants of its own.

const diarizer = new AcousticDiarizer();
let dir: string;
const wav = (name: string, parts: Float32Array[]) => {
  const file = path.join(dir, `${name}.wav`);
  writeFileSync(file, wavOf(parts));
  return file;
};

beforeAll(() => {
  dir = makeTempDir('diarizer');
});
afterAll(() => removeTempDir(dir));

describe('a segment holding two voices', () => {
  // 0.5 s silence, the low voice 0.5–3.5 s, the high voice 3.5–6.5 s with no pause between.
  let file: string;
  beforeAll(() => {
    file = wav('change', [silence(0.5), syntheticSpeech(LOW_VOICE, 3, 1), syntheticSpeech(HIGH_VOICE, 3, 2), silence(0.5)]);
  });

  it('is cut where the voice changes (within 0.25 s), its text at the space nearest the same share of its characters', async () => {
    const text = 'one two three four five six seven eight nine ten';
    const result = await diarizer.diarize({ wav16k: file, segments: [{ startSeconds: 0.5, endSeconds: 6.5, text }], numSpeakers: 0 });
    expect(result.segments.map((s) => s.speaker)).toEqual([0, 1]);
    const [first, second] = result.segments;
    expect(Math.abs(first!.endSeconds - 3.5)).toBeLessThanOrEqual(0.25);
    expect(second!.startSeconds).toBe(first!.endSeconds);
    expect([first!.startSeconds, second!.endSeconds]).toEqual([0.5, 6.5]);
    expect(`${first!.text} ${second!.text}`).toBe(text);
    expect(first!.text).toBe('one two three four five');
    for (const s of result.speakers) expect(Math.abs(s.medianPitchHz! / [110, 220][s.speaker]! - 1)).toBeLessThan(0.05);
  });

  it('is cut at the word boundary nearest the change when the words are timed', async () => {
    // Words every 0.6 s; the boundary between "five" (ends 3.3) and "six" (starts 3.6) is nearest 3.5.
    const words = ['One', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten.'].map((text, i) => ({ text, startSeconds: 0.6 + i * 0.6, endSeconds: 1 + i * 0.6 }));
    const segment = { startSeconds: 0.6, endSeconds: 6.4, text: words.map((w) => w.text).join(' '), words };
    const result = await diarizer.diarize({ wav16k: file, segments: [segment], numSpeakers: 0 });
    expect(result.segments).toEqual([
      { startSeconds: 0.6, endSeconds: 3.4, text: 'One two three four five', speaker: 0 },
      { startSeconds: 3.6, endSeconds: 6.4, text: 'six seven eight nine ten.', speaker: 1 },
    ]);
  });

  it('stays whole, one speaker, when told there is one', async () => {
    const segments = [{ startSeconds: 0.5, endSeconds: 6.5, text: 'one two three' }];
    const result = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 1 });
    expect(result.segments).toEqual([{ ...segments[0], speaker: 0 }]);
    expect(result.speakers).toEqual([{ speaker: 0, medianPitchHz: expect.any(Number), speechSeconds: 6 }]);
  });
});

it('keeps one voice one speaker, its segments unchanged', async () => {
  const file = wav('one-voice', [silence(0.5), syntheticSpeech(LOW_VOICE, 3, 1), silence(0.5), syntheticSpeech(LOW_VOICE, 3, 7), silence(0.5)]);
  const segments = [
    { startSeconds: 0.5, endSeconds: 3.5, text: 'One two three four.' },
    { startSeconds: 4, endSeconds: 7, text: 'Five six seven eight.' },
  ];
  const result = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 0 });
  expect(result.segments).toEqual(segments.map((s) => ({ ...s, speaker: 0 })));
  expect(result.speakers).toHaveLength(1);
  expect(result.speakers[0]!.speechSeconds).toBe(6);
});

describe('three voices in five turns (low, high, middle, low, middle)', () => {
  let file: string;
  const segments = [0, 1, 2, 3, 4].map((i) => ({ startSeconds: 0.5 + i * 2.9, endSeconds: 3 + i * 2.9, text: `Turn ${i}.` }));
  beforeAll(() => {
    const gap = silence(0.4);
    file = wav('three', [
      silence(0.5),
      syntheticSpeech(LOW_VOICE, 2.5, 1),
      gap,
      syntheticSpeech(HIGH_VOICE, 2.5, 2),
      gap,
      syntheticSpeech(MIDDLE_VOICE, 2.5, 3),
      gap,
      syntheticSpeech(LOW_VOICE, 2.5, 4),
      gap,
      syntheticSpeech(MIDDLE_VOICE, 2.5, 5),
      silence(0.5),
    ]);
  });

  it('finds three speakers when asked how many, numbered by first appearance', async () => {
    const result = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 0 });
    expect(result.segments.map((s) => s.speaker)).toEqual([0, 1, 2, 0, 2]);
    expect(result.speakers.map((s) => s.speechSeconds)).toEqual([5, 2.5, 5]);
  });

  it('makes exactly N speakers when told N', async () => {
    const three = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 3 });
    expect(three.segments.map((s) => s.speaker)).toEqual([0, 1, 2, 0, 2]);
    const two = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 2 });
    expect(new Set(two.segments.map((s) => s.speaker)).size).toBe(2);
    expect(two.speakers).toHaveLength(2);
    // The two low turns stay together whatever else is merged.
    expect(two.segments[0]!.speaker).toBe(two.segments[3]!.speaker);
    const one = await diarizer.diarize({ wav16k: file, segments, numSpeakers: 1 });
    expect(one.segments.map((s) => s.speaker)).toEqual([0, 0, 0, 0, 0]);
  });
});

it('profiles known turns: median pitch and speech time per speaker, no pitch without voiced speech', async () => {
  const file = wav('profile', [syntheticSpeech(HIGH_VOICE, 2, 1), silence(1), syntheticSpeech(LOW_VOICE, 2, 2)]);
  const profiles = await diarizer.profile(file, [
    { startSeconds: 3, endSeconds: 5, speaker: 1 },
    { startSeconds: 0, endSeconds: 2, speaker: 0 },
    { startSeconds: 2.1, endSeconds: 2.9, speaker: 2 },
  ]);
  expect(profiles.map((p) => [p.speaker, p.speechSeconds])).toEqual([
    [0, 2],
    [1, 2],
    [2, 0.8],
  ]);
  expect(Math.abs(profiles[0]!.medianPitchHz! / 220 - 1)).toBeLessThan(0.05);
  expect(Math.abs(profiles[1]!.medianPitchHz! / 110 - 1)).toBeLessThan(0.05);
  expect(profiles[2]!.medianPitchHz).toBeNull();
});

it('returns nothing for no segments, and stops at its deadline', async () => {
  const file = wav('long', [syntheticSpeech(LOW_VOICE, 10, 1), syntheticSpeech(HIGH_VOICE, 10, 2)]);
  await expect(diarizer.diarize({ wav16k: file, segments: [], numSpeakers: 0 })).resolves.toEqual({ segments: [], speakers: [] });
  const segments = [{ startSeconds: 0, endSeconds: 20, text: 'a b c d e f' }];
  await expect(diarizer.diarize({ wav16k: file, segments, numSpeakers: 0 }, { timeoutMs: 1 })).rejects.toBeInstanceOf(DiarizationTimeoutError);
});
