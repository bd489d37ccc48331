import { normalizedWords, wordErrors } from '../../../bench/lib/asr-wer';

describe('wordErrors', () => {
  it('counts a perfect transcript as no errors, whatever its case and punctuation', () => {
    expect(wordErrors("Don't stop, it's fine.", "don't stop it's fine")).toMatchObject({ referenceWords: 4, wer: 0 });
  });

  it('splits errors into substitutions, deletions and insertions', () => {
    // "oh" added (ins), "sat" → "sit" (sub), the second "the" dropped (del): 3 errors over 6 words.
    const errors = wordErrors('the cat sat on the mat', 'oh the cat sit on mat');
    expect(errors).toEqual({ referenceWords: 6, substitutions: 1, deletions: 1, insertions: 1, wer: 0.5 });
  });

  it('counts every reference word as deleted when nothing was heard', () => {
    expect(wordErrors('one two three', '')).toMatchObject({ deletions: 3, wer: 1 });
  });

  it('rates words heard over an empty script as fully wrong, and silence over silence as right', () => {
    expect(wordErrors('', 'hello').wer).toBe(1);
    expect(wordErrors('', '').wer).toBe(0);
  });

  it('can exceed 1 when the hypothesis adds more words than the script has', () => {
    expect(wordErrors('yes', 'no no no').wer).toBe(3);
  });
});

describe('normalizedWords', () => {
  it('lower-cases, keeps apostrophes inside words and drops other punctuation', () => {
    expect(normalizedWords("“Well,” she said — 'I’m six-thirty.'")).toEqual(['well', 'she', 'said', "i'm", 'six', 'thirty']);
  });
});
