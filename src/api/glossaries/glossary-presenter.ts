import type { Glossary, GlossarySummary, GlossaryVersion } from '../../db/glossaries';
import type { GlossaryEntry } from '../../shared/glossary-entry';

// The public shapes of a glossary (docs/glossaries.md): one version with its entries (create,
// get, update), and a list item with its latest version's size.

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const sortedKeys = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** In the order the API documents (jsonb keeps keys in an order of its own). */
export const presentGlossaryEntry = (entry: GlossaryEntry): GlossaryEntry => ({
  term: entry.term,
  case_sensitive: entry.case_sensitive,
  keep: entry.keep,
  translations: sortedKeys(entry.translations),
  pronunciations: sortedKeys(entry.pronunciations),
});

/** Whether two versions' entries are the very same list (what a PUT that changes nothing sends). */
export const sameEntries = (a: readonly GlossaryEntry[], b: readonly GlossaryEntry[]) => JSON.stringify(a.map(presentGlossaryEntry)) === JSON.stringify(b.map(presentGlossaryEntry));

/** `version` is the one shown; `updated_at` is when it was made, `latest_version` the newest there is. */
export function presentGlossary(glossary: Glossary, version: GlossaryVersion) {
  return {
    id: glossary.id,
    object: 'glossary' as const,
    name: version.name,
    source_locale: glossary.source_locale,
    version: version.version,
    latest_version: glossary.version,
    entries: version.entries.map(presentGlossaryEntry),
    created_at: glossary.created_at.toISOString(),
    updated_at: version.created_at.toISOString(),
    // Set only when a project's pinned version of a deleted glossary is read (docs/glossaries.md#deleting).
    deleted_at: iso(glossary.deleted_at),
  };
}

export function presentGlossaryListItem(glossary: GlossarySummary) {
  return {
    id: glossary.id,
    object: 'glossary' as const,
    name: glossary.name,
    source_locale: glossary.source_locale,
    version: glossary.version,
    entry_count: glossary.entry_count,
    created_at: glossary.created_at.toISOString(),
    updated_at: glossary.updated_at.toISOString(),
  };
}
