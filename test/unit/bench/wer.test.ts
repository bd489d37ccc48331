import { normalizeWords, wordErrors } from '../../../bench/lib/wer';

describe('word error rate (bench/lib/wer.ts)', () => {
  it('is 0 for the same words whatever the case and punctuation', () => {
    expect(wordErrors("Hello, I'm here. Don't go!", "hello i'm here don't go")).toMatchObject({ referenceWords: 5, wer: 0 });
  });

  it('counts substitutions, deletions and insertions on one cheapest path', () => {
    // the cat sat on the mat → the bat sat the mat today: cat→bat (S), on deleted (D), today inserted (I)
    expect(wordErrors('the cat sat on the mat', 'the bat sat the mat today')).toEqual({ referenceWords: 6, substitutions: 1, deletions: 1, insertions: 1, wer: 3 / 6 });
  });

  it('counts a transcript with nothing recognised as all deletions', () => {
    expect(wordErrors('one two three', '')).toEqual({ referenceWords: 3, substitutions: 0, deletions: 3, insertions: 0, wer: 1 });
  });

  it('can exceed 1 when the recogniser invents words', () => {
    expect(wordErrors('yes', 'yes yes yes').wer).toBe(2);
  });

  it('keeps apostrophes inside words and drops them at the edges', () => {
    expect(normalizeWords("'Quoted' words, it's the café-bar")).toEqual(['quoted', 'words', "it's", 'the', 'cafe', 'bar']);
  });
});
