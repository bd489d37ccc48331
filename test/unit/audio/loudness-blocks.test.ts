import { parseEbur128Frames } from '../../../src/audio/ebur128';
import { decodeBlocks, encodeBlocks, framesReached, integratedLoudness, loudnessRange } from '../../../src/audio/loudness-blocks';

// The series a splice re-gates (docs/audio.md#regenerations): read from ebur128's printed frames,
// stored in the timeline record, gated as ebur128 gates them.

const printed = (frames: [string, string][]) =>
  frames.map(([m, s], i) => `frame:${i}    pts:${i * 4800}       pts_time:${i / 10}\nlavfi.r128.M=${m}\nlavfi.r128.S=${s}\nlavfi.r128.I=-70.000\n`).join('');

it('reads each frame’s momentary and short-term loudness, nan (a running sum a rounding error under zero at silence) as silence', () => {
  const blocks = parseEbur128Frames(
    printed([
      ['-120.691', '-120.691'],
      ['-23.456', '-24.5'],
      ['nan', '-30.000'],
    ]),
  );
  expect(blocks).toEqual({ momentary: [-120.691, -23.456, Number.NEGATIVE_INFINITY], shortTerm: [-120.691, -24.5, -30] });
  expect(() => parseEbur128Frames('lavfi.r128.M=-20.000\n')).toThrow('ebur128 printed 1 momentary and 0 short-term figures');
});

it('gates like ebur128: the absolute gate, then 10 LU under the mean for the integrated loudness, 20 LU and the 10th–95th percentiles for the range', () => {
  const constant = { momentary: Array<number>(100).fill(-20), shortTerm: Array<number>(100).fill(-20) };
  expect(integratedLoudness(constant)).toBeCloseTo(-20, 6);
  expect(loudnessRange(constant)).toBe(0);
  // Half at −20, half at −40: the mean is about −23, its gate −33 leaves the −40 blocks out.
  const halves = { momentary: [...Array<number>(50).fill(-20), ...Array<number>(50).fill(-40)], shortTerm: Array.from({ length: 100 }, (_, i) => -30 + i / 10) };
  expect(integratedLoudness(halves)).toBeCloseTo(-20, 6);
  // Short-term −30 … −20.1 evenly: the 10th percentile −29.1 (the 10th value), the 95th −20.6.
  expect(loudnessRange(halves)).toBeCloseTo(8.5, 6);
  // Silence, and a series of nothing but unfilled windows, are ebur128's floor.
  const silent = { momentary: [Number.NEGATIVE_INFINITY, -120], shortTerm: [Number.NEGATIVE_INFINITY, -120] };
  expect(integratedLoudness(silent)).toBe(-70);
  expect(loudnessRange(silent)).toBe(0);
});

it('stores each series to a hundredth of a LU, silence as the lowest value', () => {
  const blocks = { momentary: [-23.456, Number.NEGATIVE_INFINITY, -157.2], shortTerm: [-5.004, -70, 0] };
  expect(decodeBlocks(encodeBlocks(blocks))).toEqual({ momentary: [-23.46, -327.68, -157.2], shortTerm: [-5, -70, 0] });
});

it('reaches from the frame that ends after a change to the last whose 3 s window starts before it ends', () => {
  // Samples [4800, 9600): frame 1 (ending at 9600) to frame 30 (its window 4800–148800) inclusive.
  expect(framesReached(4800, 9600, 1000)).toEqual({ from: 1, to: 31 });
  expect(framesReached(4801, 9599, 1000)).toEqual({ from: 1, to: 31 });
  expect(framesReached(0, 100, 20)).toEqual({ from: 0, to: 20 });
});
