import { chrfScore, chrfStatistics, corpusChrf } from '../../../bench/lib/chrf';

describe('chrF (bench/lib/chrf.ts), as sacrebleu computes it', () => {
  it("gives sacrebleu's published figure for its documented example", () => {
    // chrF2, 6 character orders, no word orders: 61.576379378113785 in sacrebleu's metric card.
    const score = corpusChrf(['The relationship between Obama and Netanyahu is not exactly friendly.'], ['The ties between Obama and Netanyahu are not particularly friendly.']);
    expect(score).toBeCloseTo(61.576379378113785, 10);
  });

  it('is 100 for identical text and ignores whitespace', () => {
    expect(corpusChrf(['Bon dia a tothom.'], ['Bon  dia\ta tothom.'])).toBe(100);
    expect(corpusChrf(['Bondiaatothom.'], ['Bon dia a tothom.'])).toBe(100);
  });

  it('is 0 when no character matches, and case counts', () => {
    expect(corpusChrf(['xyz'], ['abc'])).toBe(0);
    expect(corpusChrf(['ABC'], ['abc'])).toBe(0);
  });

  it('weighs recall twice as much as precision', () => {
    const missingHalf = corpusChrf(['abcdef'], ['abcdefghijkl']);
    const doubled = corpusChrf(['abcdefghijkl'], ['abcdef']);
    expect(missingHalf).toBeLessThan(doubled);
  });

  it('sums statistics over sentences before scoring (a corpus score, not a mean of sentence scores)', () => {
    const a = chrfStatistics('a b c', 'a b c');
    const b = chrfStatistics('xxxxxxxxxxxxxxxxxxxx', 'yyyyyyyyyyyyyyyyyyyy');
    const summed = a.map(([h, r, m], i) => [h + b[i]![0], r + b[i]![1], m + b[i]![2]] as [number, number, number]);
    expect(corpusChrf(['a b c', 'xxxxxxxxxxxxxxxxxxxx'], ['a b c', 'yyyyyyyyyyyyyyyyyyyy'])).toBeCloseTo(chrfScore(summed), 12);
    expect(corpusChrf(['a b c', 'xxxxxxxxxxxxxxxxxxxx'], ['a b c', 'yyyyyyyyyyyyyyyyyyyy'])).not.toBeCloseTo(50, 0);
  });

  it('refuses lists that are not aligned', () => {
    expect(() => corpusChrf(['a'], ['a', 'b'])).toThrow(RangeError);
  });
});
