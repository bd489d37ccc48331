// Every locale the service knows how to serve, and which engine data each needs from the bundled
// engines. What is actually offered is this list filtered by what is installed and by the
// external engines a worker is given (see capabilities and docs/engines.md).

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
  {
    locale: 'pt_pt',
    displayName: 'Portuguese (Portugal)',
    voice: 'pt',
    fromEnglish: [
      ['eng-cat', 'cat-por'],
      ['eng-spa', 'es-pt'],
    ],
  },
  { locale: 'pt_br', displayName: 'Portuguese (Brazil)', voice: 'pt-br', fromEnglish: [['eng-spa', 'es-pt_BR']] },
  {
    locale: 'it_it',
    displayName: 'Italian (Italy)',
    voice: 'it',
    fromEnglish: [
      ['eng-cat', 'cat-ita'],
      ['eng-spa', 'spa-ita'],
    ],
  },
  {
    locale: 'fr_fr',
    displayName: 'French (France)',
    voice: 'fr-fr',
    fromEnglish: [
      ['eng-cat', 'cat-fra'],
      ['eng-spa', 'es-fr'],
    ],
  },
  // Served only with external engines (docs/engines.md): a source through an external recognizer,
  // a target through an external translator, spoken by espeak-ng's voice unless an external
  // synthesizer has one for it. No bundled engine offers them, so a worker without external
  // engines lists none of them.
  { locale: 'de_de', displayName: 'German (Germany)', voice: 'de' },
  { locale: 'nl_nl', displayName: 'Dutch (Netherlands)', voice: 'nl' },
  { locale: 'en_gb', displayName: 'English (United Kingdom)', voice: 'en-gb' },
  { locale: 'es_mx', displayName: 'Spanish (Mexico)', voice: 'es-419' },
  { locale: 'pl_pl', displayName: 'Polish (Poland)', voice: 'pl' },
  { locale: 'cs_cz', displayName: 'Czech (Czechia)', voice: 'cs' },
  { locale: 'sv_se', displayName: 'Swedish (Sweden)', voice: 'sv' },
  { locale: 'da_dk', displayName: 'Danish (Denmark)', voice: 'da' },
  { locale: 'nb_no', displayName: 'Norwegian Bokmål (Norway)', voice: 'nb' },
  { locale: 'fi_fi', displayName: 'Finnish (Finland)', voice: 'fi' },
  { locale: 'el_gr', displayName: 'Greek (Greece)', voice: 'el' },
  { locale: 'hu_hu', displayName: 'Hungarian (Hungary)', voice: 'hu' },
  { locale: 'ro_ro', displayName: 'Romanian (Romania)', voice: 'ro' },
  { locale: 'ru_ru', displayName: 'Russian (Russia)', voice: 'ru' },
  { locale: 'uk_ua', displayName: 'Ukrainian (Ukraine)', voice: 'uk' },
  { locale: 'tr_tr', displayName: 'Turkish (Türkiye)', voice: 'tr' },
  { locale: 'ar_sa', displayName: 'Arabic (Saudi Arabia)', voice: 'ar' },
  { locale: 'he_il', displayName: 'Hebrew (Israel)', voice: 'he' },
  { locale: 'hi_in', displayName: 'Hindi (India)', voice: 'hi' },
  { locale: 'id_id', displayName: 'Indonesian (Indonesia)', voice: 'id' },
  { locale: 'vi_vn', displayName: 'Vietnamese (Vietnam)', voice: 'vi' },
  { locale: 'ja_jp', displayName: 'Japanese (Japan)', voice: 'ja' },
  { locale: 'ko_kr', displayName: 'Korean (South Korea)', voice: 'ko' },
  { locale: 'zh_cn', displayName: 'Chinese (China)', voice: 'cmn' },
];

export function findLocaleDefinition(locale: string): LocaleDefinition | undefined {
  return LOCALE_CATALOG.find((entry) => entry.locale === locale);
}
