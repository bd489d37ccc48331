import type { GlossaryEntry } from './glossary-entry';

// Where a glossary's terms occur in a text (docs/glossaries.md#matching). One matcher for the
// whole service: the API decides with it which lines a glossary change makes stale, and the
// engines protect and restore with it what they translate and speak, so both agree on what
// "the line contains the term" means.
//
// - A term matches as a whole word or phrase: the characters around it are not Unicode letters,
//   marks or digits (so "Pro" is not found in "Professional", and "café" is a word). An edge of
//   the term that is itself not a letter or digit ("C++", ".NET") needs no boundary there.
// - White space inside a term matches any run of white space ("Rice Cooker" in "Rice\nCooker").
// - `case_sensitive` false (the default): any letter case matches ("rice cooker", "RICE COOKER").
// - Where matches overlap, the longest wins ("Rice Cooker Pro" over "Rice Cooker"); of two as
//   long, the earlier; the result has no overlaps, in text order.

/** What the matcher needs of an entry: callers may pass richer objects and get them back. */
export type MatchableTerm = Pick<GlossaryEntry, 'term' | 'case_sensitive'>;

export interface TermMatch<E extends MatchableTerm = GlossaryEntry> {
  entry: E;
  /** UTF-16 offsets into the text: `text.slice(start, end)` is the matched words, as written there. */
  start: number;
  end: number;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The term as a pattern: escaped, white space as any run of it, word boundaries at its word-character edges. */
function termPattern(entry: MatchableTerm): RegExp | null {
  const term = entry.term.trim();
  if (!term) return null;
  const body = term.split(/\s+/u).map(escapeRegExp).join('\\s+');
  const before = WORD_CHAR.test(term[0]!) ? '(?<![\\p{L}\\p{M}\\p{N}])' : '';
  const after = WORD_CHAR.test(term.at(-1)!) ? '(?![\\p{L}\\p{M}\\p{N}])' : '';
  return new RegExp(`${before}${body}${after}`, entry.case_sensitive ? 'gu' : 'giu');
}

const patterns = new WeakMap<MatchableTerm, RegExp | null>();

function patternOf(entry: MatchableTerm): RegExp | null {
  if (!patterns.has(entry)) patterns.set(entry, termPattern(entry));
  const pattern = patterns.get(entry)!;
  if (pattern) pattern.lastIndex = 0;
  return pattern;
}

/** Every occurrence of one entry's term, overlaps with other entries not resolved. */
function occurrences<E extends MatchableTerm>(text: string, entry: E): TermMatch<E>[] {
  const pattern = patternOf(entry);
  if (!pattern) return [];
  const found: TermMatch<E>[] = [];
  for (const match of text.matchAll(pattern)) found.push({ entry, start: match.index, end: match.index + match[0].length });
  return found;
}

/** Whether the text contains the entry's term, by its case rule, as a whole word or phrase. */
export function textHasTerm(text: string, entry: MatchableTerm): boolean {
  const pattern = patternOf(entry);
  return pattern !== null && pattern.test(text);
}

/** The glossary's terms in the text: non-overlapping, longest first where they compete, in text order. */
export function findTerms<E extends MatchableTerm>(text: string, entries: readonly E[]): TermMatch<E>[] {
  const candidates = entries.flatMap((entry) => occurrences(text, entry));
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: TermMatch<E>[] = [];
  for (const candidate of candidates) {
    if (chosen.every((c) => candidate.end <= c.start || candidate.start >= c.end)) chosen.push(candidate);
  }
  return chosen.sort((a, b) => a.start - b.start);
}
