import { parseLanguages } from '../../../src/engines/external/libretranslate-languages';
import { LOCALE_CATALOG } from '../../../src/engines/locale-catalog';
import { NO_EXTERNAL_OFFER, servableLocales, type ExternalOffer, type InstalledEngines } from '../../../src/engines/servable-locales';
import { routeFrom } from '../../../src/shared/translation-route';

// What a worker publishes, from its bundled engines and the external ones (docs/engines.md).

const installed: InstalledEngines = {
  apertiumModes: new Set(['eng-spa', 'eng-cat', 'es-pt', 'spa-ita']),
  espeakVoices: new Set(['en-us', 'es', 'ca', 'pt', 'it', 'de', 'fr-fr']),
  hasAsrModel: (model) => model === 'en-us',
};
const offer = (overrides: Partial<ExternalOffer>): ExternalOffer => ({ ...NO_EXTERNAL_OFFER, ...overrides });
const pairs = (list: Record<string, string[]>) => parseLanguages(Object.entries(list).map(([code, targets]) => ({ code, targets })))!;

it("is the bundled rule alone without external engines: the catalog's new locales stay out", () => {
  const locales = servableLocales(LOCALE_CATALOG, installed, NO_EXTERNAL_OFFER, null);
  expect(locales).toEqual([
    { locale: 'en_us', displayName: 'English (United States)', voice: 'en-us', canBeSource: true, canBeTarget: false, translationModes: null, pivot: null },
    { locale: 'es_es', displayName: 'Spanish (Spain)', voice: 'es', canBeSource: false, canBeTarget: true, translationModes: ['eng-spa'], pivot: null },
    { locale: 'ca_es', displayName: 'Catalan (Spain)', voice: 'ca', canBeSource: false, canBeTarget: true, translationModes: ['eng-cat'], pivot: null },
    { locale: 'pt_pt', displayName: 'Portuguese (Portugal)', voice: 'pt', canBeSource: false, canBeTarget: true, translationModes: ['eng-spa', 'es-pt'], pivot: 'es' },
    { locale: 'it_it', displayName: 'Italian (Italy)', voice: 'it', canBeSource: false, canBeTarget: true, translationModes: ['eng-spa', 'spa-ita'], pivot: 'es' },
  ]);
});

it('prefers the external translator and voice for what they serve, and adds the locales they reach', () => {
  const locales = servableLocales(LOCALE_CATALOG, installed, offer({ mtPairs: pairs({ en: ['pt', 'de', 'ja'] }), ttsVoices: { ja_jp: ['jf_alpha'], pt_pt: ['pf_dora', 'pm_santa'] } }), null);
  const find = (l: string) => locales.find((e) => e.locale === l);
  // The first external voice listed for a locale is its voice; the others are offered beside it (offered-voices.ts).
  expect(find('pt_pt')).toMatchObject({ voice: 'openai-tts:pf_dora', translationModes: ['libretranslate:en-pt'], pivot: null, canBeTarget: true });
  expect(find('es_es')).toMatchObject({ voice: 'es', translationModes: ['eng-spa'] });
  // German: external translation, espeak-ng's voice; Japanese: espeak-ng has no voice here, the external one speaks it.
  expect(find('de_de')).toMatchObject({ voice: 'de', translationModes: ['libretranslate:en-de'], canBeTarget: true, canBeSource: false });
  expect(find('ja_jp')).toMatchObject({ voice: 'openai-tts:jf_alpha', translationModes: ['libretranslate:en-ja'] });
  // Korean: translated into, but nothing speaks it.
  expect(find('ko_kr')).toBeUndefined();
  expect(locales.some((l) => l.translationModesFrom)).toBe(false);
});

it('makes a language heard externally a source only where something translates from it', () => {
  const heard = offer({ asrLocales: ['de_de', 'nl_nl', 'en_us'], mtPairs: pairs({ de: ['es', 'en'], en: ['de'] }) });
  const locales = servableLocales(LOCALE_CATALOG, installed, heard, null);
  const find = (l: string) => locales.find((e) => e.locale === l);
  expect(find('de_de')).toMatchObject({ canBeSource: true, canBeTarget: true });
  // Dutch is heard, but nothing translates from Dutch.
  expect(find('nl_nl')).toBeUndefined();
  expect(find('es_es')).toMatchObject({ translationModes: ['eng-spa'], translationModesFrom: { de: ['libretranslate:de-es'] } });
  expect(find('en_us')).toMatchObject({ canBeSource: true, canBeTarget: true, translationModes: null, translationModesFrom: { de: ['libretranslate:de-en'] } });
  // Catalan is reached from English only.
  expect(find('ca_es')!.translationModesFrom).toBeUndefined();
  expect(routeFrom(find('es_es')!, 'de_de')).toEqual(['libretranslate:de-es']);
  expect(routeFrom(find('es_es')!, 'en_us')).toEqual(['eng-spa']);
  expect(routeFrom(find('ca_es')!, 'de_de')).toBeNull();
});

it('offers only the locales a worker is limited to (ENGINE_LOCALES), its sources included', () => {
  const locales = servableLocales(LOCALE_CATALOG, installed, offer({ mtPairs: pairs({ en: ['de'] }) }), new Set(['en_us', 'de_de']));
  expect(locales.map((l) => l.locale)).toEqual(['en_us', 'de_de']);
  // German is heard, but left to another worker: no target here is translated from it.
  const limited = servableLocales(LOCALE_CATALOG, installed, offer({ asrLocales: ['de_de'], mtPairs: pairs({ de: ['es'], en: ['es'] }) }), new Set(['en_us', 'es_es']));
  expect(limited.map((l) => [l.locale, l.canBeSource, l.translationModesFrom])).toEqual([
    ['en_us', true, undefined],
    ['es_es', false, undefined],
  ]);
});
