import type { GlossaryEntry } from './glossary-entry';
import { findTerms, textHasTerm, type TermMatch } from './glossary-match';

// What a project's change of glossary (another glossary, another version, none) changes in its
// lines (docs/glossaries.md#staleness). Nothing is dubbed again by itself: a line whose source
// text the change concerns goes `stale` in the languages where its rendering may differ, and the
// language's next regeneration translates and speaks those again (and bills only them).

/** Entries are paired across versions by their term as written (white space runs as one space). */
const termKey = (entry: GlossaryEntry) => entry.term.trim().replace(/\s+/gu, ' ');

const sortedRecord = (record: Record<string, string>) => JSON.stringify(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function sameEntry(a: GlossaryEntry, b: GlossaryEntry): boolean {
  return (
    termKey(a) === termKey(b) &&
    a.case_sensitive === b.case_sensitive &&
    a.keep === b.keep &&
    sortedRecord(a.translations) === sortedRecord(b.translations) &&
    sortedRecord(a.pronunciations) === sortedRecord(b.pronunciations)
  );
}

/**
 * The entries that differ between two versions: added (the new entry), removed (the old one),
 * changed in any field (both: its old and new case rule may match different words).
 */
export function changedTerms(oldEntries: readonly GlossaryEntry[], newEntries: readonly GlossaryEntry[]): GlossaryEntry[] {
  const oldByTerm = new Map(oldEntries.map((e) => [termKey(e), e]));
  const newByTerm = new Map(newEntries.map((e) => [termKey(e), e]));
  const changed: GlossaryEntry[] = [];
  for (const entry of oldEntries) {
    const now = newByTerm.get(termKey(entry));
    if (!now || !sameEntry(entry, now)) changed.push(entry);
  }
  for (const entry of newEntries) {
    const before = oldByTerm.get(termKey(entry));
    if (!before || !sameEntry(entry, before)) changed.push(entry);
  }
  return changed;
}

/** What an entry does in one target locale: all that matters there. */
function effectIn(entry: GlossaryEntry, locale: string) {
  return JSON.stringify([entry.keep, entry.translations[locale] ?? null, entry.pronunciations[locale] ?? null]);
}

/**
 * The entries that do something in a target locale: kept, or translated or pronounced there. The
 * others are not terms of that locale at all (nor do they shadow a shorter term there).
 */
export function entriesFor(entries: readonly GlossaryEntry[], locale: string): GlossaryEntry[] {
  return entries.filter((e) => e.keep || e.translations[locale] !== undefined || e.pronunciations[locale] !== undefined);
}

const sameMatches = (a: TermMatch[], b: TermMatch[], locale: string) =>
  a.length === b.length && a.every((m, i) => m.start === b[i]!.start && m.end === b[i]!.end && effectIn(m.entry, locale) === effectIn(b[i]!.entry, locale));

/**
 * The locales (of `locales`) in which a source text renders differently under the new entries
 * than under the old: it holds a changed term, and the terms found in it for that locale, or what
 * they do there, differ. A change shadowed by a longer term ("Rice" inside "Rice Cooker Pro"),
 * or one that concerns other locales only, leaves the line as it is.
 */
export function localesAffected(
  text: string,
  oldEntries: readonly GlossaryEntry[],
  newEntries: readonly GlossaryEntry[],
  locales: readonly string[],
  changed = changedTerms(oldEntries, newEntries),
): string[] {
  if (!changed.some((entry) => textHasTerm(text, entry))) return [];
  return locales.filter((locale) => !sameMatches(findTerms(text, entriesFor(oldEntries, locale)), findTerms(text, entriesFor(newEntries, locale)), locale));
}
