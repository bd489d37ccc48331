import { splitSegment } from '../../../../src/engines/diarization/split-segment';

describe('splitSegment', () => {
  const words = ['Good', 'morning', 'to', 'you.', 'Thank', 'you', 'kindly.'].map((text, i) => ({ text, startSeconds: i * 0.5, endSeconds: i * 0.5 + 0.4 }));
  const timed = { startSeconds: 0, endSeconds: 3.4, text: words.map((w) => w.text).join(' '), words };

  it('cuts at the word boundary nearest the change, each piece on its words’ times', () => {
    // Boundaries at 0.45, 0.95, 1.45, 1.95, ...: 1.9 is nearest 1.95 (between "you." and "Thank").
    expect(splitSegment(timed, [1.9], 0.6)).toEqual([
      { startSeconds: 0, endSeconds: 1.9, text: 'Good morning to you.' },
      { startSeconds: 2, endSeconds: 3.4, text: 'Thank you kindly.' },
    ]);
  });

  it('never makes a piece shorter than the minimum, and drops a cut that cannot be made', () => {
    // Nearest boundary to 0.3 is 0.45, but "Good" alone is 0.4 s: the first boundary allowed is 0.95.
    expect(splitSegment(timed, [0.3], 0.6)[0]).toEqual({ startSeconds: 0, endSeconds: 0.9, text: 'Good morning' });
    expect(splitSegment(timed, [1.9], 3)).toEqual([{ startSeconds: 0, endSeconds: 3.4, text: timed.text }]);
  });

  it('makes several cuts in order', () => {
    expect(splitSegment(timed, [0.9, 2.4], 0.6).map((p) => p.text)).toEqual(['Good morning', 'to you. Thank', 'you kindly.']);
  });

  it('without word times: at the space nearest the same share of the characters, the times at the change', () => {
    const segment = { startSeconds: 10, endSeconds: 14, text: 'aaaa bbbb cccc dddd' };
    // 2.1 s of 4 s ≈ character 10 of 19: the space at index 9.
    expect(splitSegment(segment, [12.1], 0.6)).toEqual([
      { startSeconds: 10, endSeconds: 12.1, text: 'aaaa bbbb' },
      { startSeconds: 12.1, endSeconds: 14, text: 'cccc dddd' },
    ]);
    expect(splitSegment({ ...segment, text: 'unsplittable' }, [12], 0.6)).toEqual([{ startSeconds: 10, endSeconds: 14, text: 'unsplittable' }]);
    expect(splitSegment(segment, [10.3], 0.6)).toHaveLength(1);
  });

  it('falls back to characters when the words do not match the text', () => {
    const segment = { ...timed, text: 'Good morning to you, thank you kindly.' };
    const pieces = splitSegment(segment, [1.9], 0.6);
    expect(pieces.map((p) => p.text).join(' ')).toBe(segment.text);
    expect(pieces[0]!.endSeconds).toBe(1.9);
  });
});
