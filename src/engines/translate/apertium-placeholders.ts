import { replaceSpans, restoreSpans, type PlaceholderCodec, type ProtectedTerm } from './protected-terms';

// apertium's placeholder for a protected term (docs/glossaries.md#enforcement): `zxq1`, `zxq2`, …,
// a word no apertium dictionary knows. An unknown word is what apertium does with any name it has
// never seen: every mode the service routes through (eng-spa, eng-cat, cat-spa, spa-cat, cat-por,
// es-pt; test/unit/engines/translate/glossary-apertium.test.ts) passes it on as written, marked
// `*zxq1` (`**zxq1` after a pivot), in the place the term had, with the target's articles and
// prepositions agreeing around it as they do around a name. Lower case, so the output's tidying
// (target-postprocess.ts) does not take it for a name; the sentence-start capital the tidying
// gives it is read back from its position (protected-terms.ts). The marks are not untranslated
// words (isPlaceholderWord), and apertium's `*` is removed with the rest of its marks.

const PREFIX = 'zxq';
/** A placeholder in the output, however apertium or the tidying cased it; the digits are the span's index from 1. */
const PLACEHOLDER = new RegExp(`${PREFIX}(\\d+)`, 'gi');
const GLUED = new RegExp(`(${PREFIX}\\d+)(?=\\p{L})`, 'giu');
const PLACEHOLDER_WORD = new RegExp(`^${PREFIX}\\d+`, 'i');

/** A word apertium marked that is a placeholder (or one with a suffix apertium glued on, "zxq1ha"). */
export const isPlaceholderWord = (word: string): boolean => PLACEHOLDER_WORD.test(word);

export const apertiumPlaceholders: PlaceholderCodec = {
  encode: (text: string, terms: readonly ProtectedTerm[]) => replaceSpans(text, terms, (k) => `${PREFIX}${k + 1}`),
  decode: (output: string, terms: readonly ProtectedTerm[]) =>
    // A letter apertium glued to a placeholder (eng-cat reads "zxq1's" as "zxq1ha", "has") is
    // kept as a word of its own rather than glued to the term.
    restoreSpans(output.replace(GLUED, '$1 '), terms, PLACEHOLDER),
};
