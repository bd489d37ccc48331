import { groupWords, toSentence } from '../../../../src/engines/asr/group-words';
import type { TimedWord } from '../../../../src/engines/asr/pocketsphinx-output';

/** Words of fixed length with the given gaps before each (first gap = start time). */
function words(spec: [string, number][], length = 0.3): TimedWord[] {
  let t = 0;
  return spec.map(([word, gap]) => {
    const start = t + gap;
    t = start + length;
    return { word, startSeconds: Number(start.toFixed(3)), endSeconds: Number(t.toFixed(3)) };
  });
}

describe('groupWords', () => {
  it('splits on a pause of 0.35 s or more, not on shorter ones', () => {
    const segments = groupWords(words([['hello', 0.5], ['world', 0.34], ['the', 0.35], ['house', 0.01], ['is', 0.2], ['red', 1.5]]));
    expect(segments.map((s) => s.text)).toEqual(['Hello world.', 'The house is.', 'Red.']);
    expect(segments[0]).toMatchObject({ startSeconds: 0.5, endSeconds: 1.44 });
    expect(segments[2]).toMatchObject({ startSeconds: 4.4, endSeconds: 4.7 });
  });

  it('closes a segment that passes the maximum length even without a pause', () => {
    const many = words(Array.from({ length: 40 }, (_, i): [string, number] => [`w${i}`, 0.05]));
    const segments = groupWords(many);
    expect(segments.length).toBeGreaterThan(1);
    for (const s of segments) expect(s.endSeconds - s.startSeconds).toBeLessThanOrEqual(8);
    // No word is lost or duplicated.
    expect(segments.flatMap((s) => s.text.replace(/\.$/, '').split(' ')).length).toBe(40);
  });

  it('honours custom thresholds', () => {
    const input = words([['a', 0], ['b', 0.2], ['c', 0.2]]);
    expect(groupWords(input, { minPauseSeconds: 0.1 })).toHaveLength(3);
    expect(groupWords(input, { minPauseSeconds: 1, maxSegmentSeconds: 0.9 }).map((s) => s.text)).toEqual(['A b.', 'C.']);
  });

  it('returns no segments for no words', () => {
    expect(groupWords([])).toEqual([]);
  });

  it('keeps segments in time order with start < end', () => {
    const segments = groupWords(words([['a', 0.1], ['b', 1], ['c', 1], ['d', 0.1]]));
    for (const [i, s] of segments.entries()) {
      expect(s.endSeconds).toBeGreaterThan(s.startSeconds);
      if (i > 0) expect(s.startSeconds).toBeGreaterThanOrEqual(segments[i - 1]!.endSeconds);
    }
  });
});

describe('toSentence', () => {
  it('capitalizes and ends with a period', () => {
    expect(toSentence(['the', 'house', 'is', 'red'])).toBe('The house is red.');
  });

  it('capitalizes the English pronoun I and its contractions', () => {
    expect(toSentence(['i', 'think', "i'm", 'in', 'india'])).toBe("I think I'm in india.");
  });

  it('does not double terminal punctuation and returns empty for nothing', () => {
    expect(toSentence(['really?'])).toBe('Really?');
    expect(toSentence([])).toBe('');
  });
});
