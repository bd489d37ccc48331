// ISO 639-2/T codes, the language tags an MP4 track carries (ISO/IEC 14496-12 `mdhd`), for the
// languages of the locale catalog (src/engines/locale-catalog.ts). A language missing here is
// tagged `und` (undetermined), which every player accepts.

const BY_LANGUAGE: Record<string, string> = {
  ar: 'ara',
  ca: 'cat',
  cs: 'ces',
  da: 'dan',
  de: 'deu',
  el: 'ell',
  en: 'eng',
  es: 'spa',
  fi: 'fin',
  fr: 'fra',
  gl: 'glg',
  he: 'heb',
  hi: 'hin',
  hu: 'hun',
  id: 'ind',
  it: 'ita',
  ja: 'jpn',
  ko: 'kor',
  nb: 'nob',
  nl: 'nld',
  pl: 'pol',
  pt: 'por',
  ro: 'ron',
  ru: 'rus',
  sv: 'swe',
  tr: 'tur',
  uk: 'ukr',
  vi: 'vie',
  zh: 'zho',
};

/** The ISO 639-2/T code of a locale such as `es_es` or `pt-BR`: `spa`, `por`; `und` when unknown. */
export function iso6392(locale: string): string {
  const language = locale.toLowerCase().split(/[_-]/)[0] ?? '';
  return BY_LANGUAGE[language] ?? 'und';
}
