import { LOCALE_CATALOG } from '../../src/engines/locale-catalog';

// Every route from English that Debian's apertium pairs make for a target the benchmark script
// has a reference for: direct, via Spanish, via Catalan (issue 29). The catalog's own routes are
// added, so a route it lists is always measured.

const CANDIDATES: Record<string, string[][]> = {
  es_es: [['eng-spa'], ['eng-cat', 'cat-spa']],
  ca_es: [['eng-cat'], ['eng-spa', 'spa-cat']],
  gl_es: [['en-gl'], ['eng-spa', 'es-gl']],
  pt_pt: [
    ['eng-spa', 'es-pt'],
    ['eng-cat', 'cat-por'],
  ],
  it_it: [
    ['eng-spa', 'spa-ita'],
    ['eng-cat', 'cat-ita'],
  ],
  fr_fr: [
    ['eng-spa', 'es-fr'],
    ['eng-cat', 'cat-fra'],
  ],
};

export function routeCandidates(locale: string): string[][] {
  const catalog = LOCALE_CATALOG.find((l) => l.locale === locale)?.fromEnglish ?? [];
  const all = [...(CANDIDATES[locale] ?? []), ...catalog.map((r) => [...r])];
  const seen = new Set<string>();
  return all.filter((route) => !seen.has(route.join('>')) && seen.add(route.join('>')));
}

export const routeName = (route: readonly string[]) => route.join(' → ');
