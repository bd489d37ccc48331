import { InvalidArgumentError } from 'commander';
import { rangeArgument } from '../../../src/dub/arguments';
import { rangeCutArgs } from '../../../src/engines/media/range-cut';
import { cuesInRange, parseRangeText, previewName, rangeEndWithin, rangeProblem } from '../../../src/shared/source-range';

// A preview's range (docs/previews.md): the create's checks, the clipping of a supplied script,
// where the cut ends, the CLI's `--range`, the files' names and the cut's ffmpeg arguments.

describe('rangeProblem', () => {
  it.each([
    [{ start_seconds: 0, end_seconds: 1 }, null],
    [{ start_seconds: 30.5, end_seconds: 90.25 }, null],
    [{ start_seconds: -0.1, end_seconds: 5 }, 'range.start_seconds'],
    [{ start_seconds: NaN, end_seconds: 5 }, 'range.start_seconds'],
    [{ start_seconds: 0, end_seconds: Infinity }, 'range.end_seconds'],
    [{ start_seconds: 5, end_seconds: 5 }, 'range.end_seconds'],
    [{ start_seconds: 6, end_seconds: 5 }, 'range.end_seconds'],
    [{ start_seconds: 5, end_seconds: 5.999 }, 'range.end_seconds'],
    [{ start_seconds: 0, end_seconds: 86_401 }, 'range.end_seconds'],
  ])('%j → %s', (range, param) => {
    expect(rangeProblem(range)?.param ?? null).toBe(param);
  });

  it('says why a range under a second is refused', () => {
    expect(rangeProblem({ start_seconds: 5, end_seconds: 5.5 })?.message).toMatch(/lasts 0\.5 s; a preview lasts at least 1 s/);
  });
});

describe('cuesInRange', () => {
  const cues = [
    { start_seconds: 1, end_seconds: 3, text: 'before' },
    { start_seconds: 4, end_seconds: 6, text: 'straddles the start', speaker: 'Ana' },
    { start_seconds: 7.25, end_seconds: 8.5, text: 'inside' },
    { start_seconds: 11, end_seconds: 13, text: 'straddles the end' },
    { start_seconds: 12, end_seconds: 14, text: 'touches the end only' },
  ];

  it('keeps the cues overlapping the range, clipped to it and counted from its start, with everything else they carry', () => {
    expect(cuesInRange(cues, { start_seconds: 5, end_seconds: 12 })).toEqual([
      { start_seconds: 0, end_seconds: 1, text: 'straddles the start', speaker: 'Ana' },
      { start_seconds: 2.25, end_seconds: 3.5, text: 'inside' },
      { start_seconds: 6, end_seconds: 7, text: 'straddles the end' },
    ]);
  });

  it('keeps no cue of a range nothing is said in, and writes times to the millisecond', () => {
    expect(cuesInRange(cues, { start_seconds: 14.5, end_seconds: 20 })).toEqual([]);
    expect(cuesInRange([{ start_seconds: 0.3, end_seconds: 0.9, text: 'x' }], { start_seconds: 0.1, end_seconds: 1.2 })).toEqual([{ start_seconds: 0.2, end_seconds: 0.8, text: 'x' }]);
  });
});

describe('rangeEndWithin', () => {
  it('cuts to the range end within the source, to the source end just past it, and refuses a range past it', () => {
    expect(rangeEndWithin({ start_seconds: 5, end_seconds: 12 }, 20)).toBe(12);
    expect(rangeEndWithin({ start_seconds: 5, end_seconds: 20.03 }, 20)).toBe(20);
    expect(rangeEndWithin({ start_seconds: 5, end_seconds: 20.2 }, 20)).toBeNull();
    expect(rangeEndWithin({ start_seconds: 15, end_seconds: 25 }, 20)).toBeNull();
  });
});

describe('the CLI --range', () => {
  it.each([
    ['30-90', { start_seconds: 30, end_seconds: 90 }],
    ['1:00-1:30', { start_seconds: 60, end_seconds: 90 }],
    ['0:05.5 - 12', { start_seconds: 5.5, end_seconds: 12 }],
    ['1:02:03-1:02:33', { start_seconds: 3723, end_seconds: 3753 }],
  ])('reads %s', (text, range) => {
    expect(parseRangeText(text)).toEqual(range);
    expect(rangeArgument(text)).toEqual(range);
  });

  it.each(['30', '30-', 'a-b', '1:75-2:00', '-5-10'])('refuses %s', (text) => {
    expect(parseRangeText(text)).toBeNull();
    expect(() => rangeArgument(text)).toThrow(InvalidArgumentError);
  });

  it("refuses a range the API would, in the flag's words", () => {
    expect(() => rangeArgument('90-30')).toThrow(/end \(30\) must be after start \(90\)/);
  });
});

it("names a preview's files after its range", () => {
  expect(previewName('Cooking rice', { start_seconds: 30, end_seconds: 90.5 })).toBe('Cooking rice (preview 30-90.5s)');
  expect(previewName('Cooking rice', null)).toBe('Cooking rice');
});

it('cuts with one ffmpeg command: seek and length on the input, picture as H.264, first audio track as FLAC, in Matroska', () => {
  const args = rangeCutArgs({ startSeconds: 5, endSeconds: 12, hasVideo: true }, ['-i', 'file:in.mp4'], '/tmp/out.mkv');
  expect(args.slice(0, 6)).toEqual(['-ss', '5.000000', '-t', '7.000000', '-i', 'file:in.mp4']);
  expect(args.join(' ')).toContain('-map 0:V:0 -c:v libx264 -preset veryfast -crf 18');
  expect(args.join(' ')).toContain('-map 0:a:0 -c:a flac');
  expect(args.slice(-3)).toEqual(['-f', 'matroska', 'file:/tmp/out.mkv']);
  const audioOnly = rangeCutArgs({ startSeconds: 0, endSeconds: 3, hasVideo: false }, ['-i', 'file:in.wav'], '/tmp/out.mkv');
  expect(audioOnly).not.toContain('libx264');
});
