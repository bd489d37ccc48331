import type { ServableLocale } from '../../shared/engine-capabilities';
import type { GlossaryEntry } from '../../shared/glossary-entry';
import { ApiError } from '../api-error';
import type { CreateGlossaryBody } from './glossaries.schema';

// A glossary's entries as the API stores them (docs/glossaries.md#entries), checked whole before
// anything is written: each error names the entry (`entries[3].term`) and the field. The schema
// has bounded the sizes; this checks what needs the workers' locales or looks across entries.

type EntryInput = CreateGlossaryBody['entries'][number];

/**
 * Finds an earlier entry with the same term: written alike (white space runs as one), in any
 * letter case when either of the two ignores case. Maps, so 1,000 entries cost 1,000 lookups.
 */
function duplicateFinder() {
  const anyCase = new Map<string, number>();
  const ignoringCase = new Map<string, number>();
  const exactCase = new Map<string, number>();
  return (entry: GlossaryEntry, index: number): number | undefined => {
    const exact = entry.term.replace(/\s+/gu, ' ');
    const lower = exact.toLowerCase();
    const earlier = entry.case_sensitive ? (ignoringCase.get(lower) ?? exactCase.get(exact)) : anyCase.get(lower);
    if (earlier !== undefined) return earlier;
    if (!anyCase.has(lower)) anyCase.set(lower, index);
    (entry.case_sensitive ? exactCase : ignoringCase).set(entry.case_sensitive ? exact : lower, index);
    return undefined;
  };
}

function checkLocaleKeys(renderings: Record<string, string>, param: string, targets: ReadonlySet<string>, sourceLocale: string): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [locale, text] of Object.entries(renderings).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (locale === sourceLocale) throw ApiError.invalid('invalid_parameter', `${param}.${locale} is the glossary's source locale; name target locales only.`, `${param}.${locale}`);
    if (!targets.has(locale)) throw ApiError.invalid('unsupported_locale', `"${locale}" is not a supported target locale; see GET /v1/dubbing/locales.`, `${param}.${locale}`);
    checked[locale] = text.trim();
  }
  return checked;
}

function readEntry(input: EntryInput, index: number, targets: ReadonlySet<string>, sourceLocale: string): GlossaryEntry {
  const param = `entries[${index}]`;
  const term = input.term.trim();
  if (/[\r\n\u2028\u2029]/u.test(term)) throw ApiError.invalid('invalid_parameter', `${param}.term must be one line.`, `${param}.term`);
  const entry: GlossaryEntry = {
    term,
    case_sensitive: input.case_sensitive,
    keep: input.keep,
    translations: checkLocaleKeys(input.translations ?? {}, `${param}.translations`, targets, sourceLocale),
    pronunciations: checkLocaleKeys(input.pronunciations ?? {}, `${param}.pronunciations`, targets, sourceLocale),
  };
  if (!entry.keep && Object.keys(entry.translations).length === 0 && Object.keys(entry.pronunciations).length === 0) {
    throw ApiError.invalid('invalid_parameter', `${param} does nothing: set keep, or give a translation or a pronunciation.`, param);
  }
  return entry;
}

/** The entries normalized (terms and renderings trimmed, defaults filled, locales sorted), or the first problem as a 400. */
export function readGlossaryEntries(inputs: readonly EntryInput[], sourceLocale: string, capabilities: { locales: readonly ServableLocale[] }): GlossaryEntry[] {
  const targets = new Set(capabilities.locales.filter((l) => l.canBeTarget).map((l) => l.locale));
  const duplicateOf = duplicateFinder();
  const entries: GlossaryEntry[] = [];
  inputs.forEach((input, index) => {
    const entry = readEntry(input, index, targets, sourceLocale);
    const earlier = duplicateOf(entry, index);
    if (earlier !== undefined) {
      throw ApiError.invalid('duplicate_glossary_term', `entries[${index}].term "${entry.term}" is the term of entries[${earlier}] already; give each term once.`, `entries[${index}].term`);
    }
    entries.push(entry);
  });
  return entries;
}

/** The glossary's source locale: one the workers can take as a source. */
export function checkGlossarySourceLocale(sourceLocale: string, capabilities: { locales: readonly ServableLocale[] }): void {
  if (!capabilities.locales.some((l) => l.locale === sourceLocale && l.canBeSource)) {
    throw ApiError.invalid('unsupported_locale', `"${sourceLocale}" is not a supported source locale; see GET /v1/dubbing/locales.`, 'source_locale');
  }
}
