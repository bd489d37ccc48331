// apertium marks each word it could not translate: `*word` is unknown to the source analyser,
// `@word` is missing from the bilingual dictionary, `#word` is a target lemma the generator could
// not inflect. `-u` hides only the first kind, and hides it silently; the translator runs without
// it, counts every mark here (issue 29: untranslated words are reported per language) and takes
// the marks out itself, so no dub ever speaks one.

export type UntranslatedMark = '*' | '@' | '#';

export interface MarkedWord {
  word: string;
  mark: UntranslatedMark;
}

const MARKED = /(^|[^\p{L}\p{N}])([*@#]+)([\p{L}\p{N}][\p{L}\p{N}'’_-]*)/gu;

/**
 * The words apertium marked in `output`, and the output without the marks. A mark character that
 * the input itself had before a word ("#hashtag", "@name") is the customer's text, not a mark.
 */
export function readMarks(output: string, input: string): { text: string; words: MarkedWord[] } {
  const own = new Set([...input.matchAll(/([*@#])[\p{L}\p{N}]/gu)].map((m) => m[1] as UntranslatedMark));
  const words: MarkedWord[] = [];
  const text = output.replace(MARKED, (whole, before: string, marks: string, word: string) => {
    if ([...marks].some((c) => own.has(c as UntranslatedMark))) return whole;
    // '**word' is a word that an earlier step of a pivot route had already left untranslated.
    words.push({ word, mark: marks[marks.length - 1] as UntranslatedMark });
    return `${before}${word}`;
  });
  return { text, words };
}
