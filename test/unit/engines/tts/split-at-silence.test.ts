import { splitAtSilence } from '../../../../src/engines/tts/split-at-silence';

const pcm = (samples: number[]) => {
  const out = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => out.writeInt16LE(s, i * 2));
  return out;
};

it('cuts at zero runs at least the gap long and keeps shorter ones inside a span', () => {
  //            0  1  2  3  4  5  6  7  8  9 10 11 12
  const data = [0, 0, 5, 0, 0, 7, 0, 0, 0, 0, -3, 0, 0];
  expect(splitAtSilence(pcm(data), 4)).toEqual([
    { start: 2, end: 6, zerosBefore: 2 },
    { start: 10, end: 11, zerosBefore: 4 },
  ]);
});

it('finds nothing in silence and one span in unbroken sound', () => {
  expect(splitAtSilence(pcm([0, 0, 0]), 2)).toEqual([]);
  expect(splitAtSilence(pcm([1, 2, 3]), 2)).toEqual([{ start: 0, end: 3, zerosBefore: 0 }]);
});
