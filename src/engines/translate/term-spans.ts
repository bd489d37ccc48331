import type { GlossaryEntry } from '../../shared/glossary-entry';

// Where a glossary's terms occur in a text (docs/glossaries.md#enforcement): whole words or
// phrases only ("Pro" is not found in "Product"), in any letter case unless the entry is
// case-sensitive, the longest term first where two overlap ("Rice Cooker Pro" over "Rice"), and
// no two spans sharing a character. Letters and digits of any script are word characters; the
// words of a phrase match across any run of whitespace. Private to the engines until the
// glossary resource's shared matcher (src/shared/glossary-match.ts) replaces it with the same rules.

export interface TermSpan<E extends Pick<GlossaryEntry, 'term' | 'case_sensitive'> = GlossaryEntry> {
  start: number;
  end: number;
  entry: E;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function termPattern(term: string, caseSensitive: boolean): RegExp | null {
  const words = term.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  // The lookarounds make the boundary Unicode-aware; \b knows only ASCII letters.
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${words.map(escapeRegExp).join('\\s+')}(?![\\p{L}\\p{N}\\p{M}])`, caseSensitive ? 'gu' : 'giu');
}

/** The spans of `text` that are glossary terms, in text order. */
export function findTerms<E extends Pick<GlossaryEntry, 'term' | 'case_sensitive'>>(text: string, entries: readonly E[]): TermSpan<E>[] {
  const candidates: TermSpan<E>[] = [];
  for (const entry of entries) {
    const pattern = termPattern(entry.term, entry.case_sensitive);
    if (!pattern) continue;
    for (const match of text.matchAll(pattern)) candidates.push({ start: match.index, end: match.index + match[0].length, entry });
  }
  // Longest first, then leftmost: each accepted span excludes every candidate it overlaps.
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const accepted: TermSpan<E>[] = [];
  for (const span of candidates) {
    if (accepted.every((taken) => span.end <= taken.start || span.start >= taken.end)) accepted.push(span);
  }
  return accepted.sort((a, b) => a.start - b.start);
}
