// Which route translates a project's source into a target, read from a published locale entry
// (src/engines/servable-locales.ts): the English route every worker has had, or one of the
// routes external translators add from other source languages (docs/engines.md). Pure: the
// API's create check, the routing of media steps and the translate step all ask it.

export interface TranslationRoutes {
  /** Modes from English. */
  translationModes: string[] | null;
  /** Modes from other source languages, by ISO 639-1 code. */
  translationModesFrom?: Record<string, string[]>;
}

export const languageOf = (locale: string): string => locale.split('_')[0]!;

/** The route into the entry's locale from `sourceLocale`, or null when there is none. */
export function routeFrom(entry: TranslationRoutes, sourceLocale: string): string[] | null {
  const language = languageOf(sourceLocale);
  return language === 'en' ? entry.translationModes : (entry.translationModesFrom?.[language] ?? null);
}
