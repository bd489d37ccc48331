// Glossary terms a translation engine must not touch (docs/glossaries.md#enforcement): each span
// is swapped for a placeholder the engine passes through unchanged, and the placeholder in the
// engine's output is swapped for the span's replacement (the forced translation, or the term kept
// as the glossary writes it). Each engine has its own placeholder (apertium: an unknown word;
// LibreTranslate: a `translate="no"` element); the swapping around it is shared here.

/** One span of a source text (UTF-16 offsets into the text as given) and what the target says there. */
export interface ProtectedTerm {
  start: number;
  end: number;
  replacement: string;
}

/** Per text of a translate call, its protected spans in text order, not overlapping. */
export type ProtectedTerms = readonly (readonly ProtectedTerm[])[];

export interface PlaceholderCodec {
  /** The source text with protected span k (from 0) replaced by the engine's placeholder for k. */
  encode(text: string, terms: readonly ProtectedTerm[]): string;
  /** The engine's output with each placeholder replaced by its span's replacement. */
  decode(output: string, terms: readonly ProtectedTerm[]): string;
}

/** `text` with each span replaced by `placeholder(k, spanText)`, the text between kept by `between`. */
export function replaceSpans(text: string, terms: readonly ProtectedTerm[], placeholder: (k: number, spanText: string) => string, between: (piece: string) => string = (p) => p): string {
  let out = '';
  let from = 0;
  terms.forEach((term, k) => {
    out += between(text.slice(from, term.start)) + placeholder(k, text.slice(term.start, term.end));
    from = term.end;
  });
  return out + between(text.slice(from));
}

/** True when a restored term at the end of `before` would open a sentence. */
function opensSentence(before: string): boolean {
  const trimmed = before.replace(/[\s¿¡"«“‘(]+$/u, '');
  return trimmed === '' || /[.!?…]$/.test(trimmed);
}

/**
 * The replacement as it reads at this place: a term opening a sentence gets a capital when its
 * first word is all lower case ("olla arrocera" → "Olla arrocera"), never otherwise ("iPhone").
 */
export function placedReplacement(replacement: string, before: string): string {
  if (!opensSentence(before)) return replacement;
  return replacement.replace(/^(\p{Ll}+)(?=$|[^\p{L}])/u, (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`);
}

/**
 * `output` with every match of `placeholders` (group 1: the span's index from 1) replaced by that
 * span's replacement, the text between passed through `between`. A match naming no span is left.
 */
export function restoreSpans(output: string, terms: readonly ProtectedTerm[], placeholders: RegExp, between: (piece: string) => string = (p) => p): string {
  let out = '';
  let from = 0;
  for (const match of output.matchAll(placeholders)) {
    const term = terms[Number(match[1]) - 1];
    if (!term) continue;
    out += between(output.slice(from, match.index));
    out += placedReplacement(term.replacement, out);
    from = match.index + match[0].length;
  }
  return out + between(output.slice(from));
}
