// One entry of a workspace glossary, as stored in a pinned version and as the engines apply it.
// Locale keys are the API's (`es_es`). docs/glossaries.md

export interface GlossaryEntry {
  /** As written in the source text. */
  term: string;
  /** false (default): the term matches in any letter case, still as a whole word or phrase. */
  case_sensitive: boolean;
  /** true: left as written in every target locale that `translations` does not name. */
  keep: boolean;
  /** Forced translation per target locale. */
  translations: Record<string, string>;
  /** How the voice says the term, per locale, in the notation of the locale's voice engine (docs/glossaries.md#pronunciations). */
  pronunciations: Record<string, string>;
}
