import type { GlossaryEntry } from '../../shared/glossary-entry';
import type { ProtectedTerm } from './protected-terms';
import { findTerms } from '../../shared/glossary-match';
import type { TranslateOptions, Translator } from './translator';

// A glossary applied to a translate call (docs/glossaries.md#enforcement): every occurrence of a
// term that the glossary settles for the target locale is protected, and comes back as the forced
// translation, or as the term written as the glossary writes it when the entry keeps it. Entries
// that name neither for the locale leave the engine free. The engine's own placeholder does the
// protecting (TranslateOptions.protectedTerms), so this works with whichever engine the route runs.

/** What the target says for `entry` in `targetLocale`, or null when the glossary leaves it to the engine. */
export function targetWording(entry: GlossaryEntry, targetLocale: string): string | null {
  const forced = entry.translations[targetLocale];
  if (forced !== undefined && forced.trim()) return forced;
  return entry.keep ? entry.term : null;
}

/** The spans of `text` the glossary settles for `targetLocale`, with what stands there in the target. */
export function protectedTermsFor(text: string, entries: readonly GlossaryEntry[], targetLocale: string): ProtectedTerm[] {
  const settled = entries.flatMap((entry) => {
    const replacement = targetWording(entry, targetLocale);
    return replacement === null ? [] : [{ term: entry.term, case_sensitive: entry.case_sensitive, replacement }];
  });
  return findTerms(text, settled).map(({ start, end, entry }) => ({ start, end, replacement: entry.replacement }));
}

/** `translator.translate` with the glossary's terms enforced in `targetLocale`. */
export function translateWithGlossary(
  translator: Translator,
  texts: readonly string[],
  modes: readonly string[],
  entries: readonly GlossaryEntry[],
  targetLocale: string,
  options?: TranslateOptions,
): Promise<string[]> {
  const protectedTerms = texts.map((text) => protectedTermsFor(text, entries, targetLocale));
  const any = protectedTerms.some((terms) => terms.length > 0);
  return translator.translate(texts, modes, any ? { ...options, protectedTerms } : options);
}
