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

export const LOCALE_CATALOG: readonly LocaleDefinition[] = [
  { locale: 'en_us', displayName: 'English (United States)', voice: 'en-us', asrModel: 'en-us' },
  { locale: 'es_es', displayName: 'Spanish (Spain)', voice: 'es', fromEnglish: [['eng-spa']] },
  { locale: 'ca_es', displayName: 'Catalan (Spain)', voice: 'ca', fromEnglish: [['eng-cat']] },
  { locale: 'gl_es', displayName: 'Galician (Spain)', voice: 'gl', fromEnglish: [['en-gl']] },
  { locale: 'pt_pt', displayName: 'Portuguese (Portugal)', voice: 'pt', fromEnglish: [['eng-spa', 'es-pt']] },
  { locale: 'pt_br', displayName: 'Portuguese (Brazil)', voice: 'pt-br', fromEnglish: [['eng-spa', 'es-pt_BR']] },
  { locale: 'it_it', displayName: 'Italian (Italy)', voice: 'it', fromEnglish: [['eng-spa', 'spa-ita']] },
  { locale: 'fr_fr', displayName: 'French (France)', voice: 'fr-fr', fromEnglish: [['eng-spa', 'es-fr']] },
];

export function findLocaleDefinition(locale: string): LocaleDefinition | undefined {
  return LOCALE_CATALOG.find((entry) => entry.locale === locale);
}
