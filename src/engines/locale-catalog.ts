// Every locale the service knows how to serve with the local engines, and which engine data each
// needs. What is actually offered is this list filtered by what is installed (see capabilities).

export interface LocaleDefinition {
  locale: string;
  displayName: string;
  /** espeak-ng voice used to speak this locale. */
  voice: string;
  /** pocketsphinx acoustic model directory, for locales that can be a source. */
  asrModel?: string;
  /**
   * apertium modes that translate from English into this locale, tried in order: a one-step
   * mode, or two modes through a pivot language (English → Spanish → Portuguese).
   */
  fromEnglish?: readonly (readonly string[])[];
}

export const SOURCE_LOCALE_ENGLISH = 'en_us';

// Routes per target, best first: chrF on the benchmark script, measured by `npm run bench:routes`
// (figures, command and the rule in docs/translation.md: the best chrF, a pivot winning by at least
// 1 point over the direct route). The Catalan pivot beat the Spanish one for French (57.3 against
// 49.9), Italian (54.7 / 50.0) and Portuguese (55.7 / 53.6), and English → Spanish directly (62.1
// / 60.8); Galician is better through Spanish (56.5) than direct (54.7). A later route serves only
// where the first one's pairs are not installed (or are excluded). pt_br has no reference
// translation yet: its route is unmeasured.
export const LOCALE_CATALOG: readonly LocaleDefinition[] = [
  { locale: 'en_us', displayName: 'English (United States)', voice: 'en-us', asrModel: 'en-us' },
  { locale: 'es_es', displayName: 'Spanish (Spain)', voice: 'es', fromEnglish: [['eng-cat', 'cat-spa'], ['eng-spa']] },
  { locale: 'ca_es', displayName: 'Catalan (Spain)', voice: 'ca', fromEnglish: [['eng-cat'], ['eng-spa', 'spa-cat']] },
  { locale: 'gl_es', displayName: 'Galician (Spain)', voice: 'gl', fromEnglish: [['eng-spa', 'es-gl'], ['en-gl']] },
  { locale: 'pt_pt', displayName: 'Portuguese (Portugal)', voice: 'pt', fromEnglish: [['eng-cat', 'cat-por'], ['eng-spa', 'es-pt']] },
  { locale: 'pt_br', displayName: 'Portuguese (Brazil)', voice: 'pt-br', fromEnglish: [['eng-spa', 'es-pt_BR']] },
  { locale: 'it_it', displayName: 'Italian (Italy)', voice: 'it', fromEnglish: [['eng-cat', 'cat-ita'], ['eng-spa', 'spa-ita']] },
  { locale: 'fr_fr', displayName: 'French (France)', voice: 'fr-fr', fromEnglish: [['eng-cat', 'cat-fra'], ['eng-spa', 'es-fr']] },
];

export function findLocaleDefinition(locale: string): LocaleDefinition | undefined {
  return LOCALE_CATALOG.find((entry) => entry.locale === locale);
}
