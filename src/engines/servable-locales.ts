import { libreTranslateCode, offeredCodes, type TranslationPairs } from './external/libretranslate-languages';
import { libreTranslateMode, OPENAI_TTS_VOICE_PREFIX } from './external/external-names';
import type { LocaleDefinition } from './locale-catalog';
import type { ServableLocale } from '../shared/engine-capabilities';
import { languageOf } from '../shared/translation-route';

// Which catalog locales a worker serves, and how, from what its engines can do: the bundled ones
// found installed, and the external ones its settings name (docs/engines.md). An external engine
// wins the step it serves: its voice, its translation route. With no external engine this is
// exactly the bundled rule: a locale with an espeak-ng voice, a source when pocketsphinx has its
// model, a target when an apertium route from English is installed.

// The published description of one locale lives in src/shared (the API reads it too).
export type { ServableLocale } from '../shared/engine-capabilities';

/** What the bundled engines were found to serve. */
export interface InstalledEngines {
  apertiumModes: ReadonlySet<string>;
  espeakVoices: ReadonlySet<string>;
  /** pocketsphinx can recognize with this acoustic model. */
  hasAsrModel: (model: string) => boolean;
}

/** What the external engines serve (src/engines/external/discover-external-engines.ts). */
export interface ExternalOffer {
  asrLocales: readonly string[];
  /** Null: no external translator. */
  mtPairs: TranslationPairs | null;
  /** The external voices per locale, the locale's default first (TTS_ENGINE_VOICES). */
  ttsVoices: Readonly<Record<string, readonly string[]>>;
  /** The speech engine's URL and model, naming its voices' samples. */
  ttsEngine?: string;
}

export const NO_EXTERNAL_OFFER: ExternalOffer = { asrLocales: [], mtPairs: null, ttsVoices: {} };

export function servableLocales(catalog: readonly LocaleDefinition[], installed: InstalledEngines, external: ExternalOffer, wanted: ReadonlySet<string> | null): ServableLocale[] {
  const defs = catalog.filter((def) => !wanted || wanted.has(def.locale));
  const codes = external.mtPairs ? offeredCodes(external.mtPairs) : new Set<string>();
  const externalRoute = (fromLocale: string, to: LocaleDefinition): string[] | null => {
    if (!external.mtPairs) return null;
    const from = libreTranslateCode(fromLocale, codes);
    const target = libreTranslateCode(to.locale, codes);
    return external.mtPairs.get(from)?.has(target) ? [libreTranslateMode(from, target)] : null;
  };
  // The languages this worker hears besides English, through its external recognizer.
  const heard = external.asrLocales.filter((l) => !wanted || wanted.has(l));
  const otherSources = [...new Map(heard.filter((l) => languageOf(l) !== 'en').map((l) => [languageOf(l), l])).entries()];

  const entries = defs.map((def) => {
    const espeak = installed.espeakVoices.has(def.voice);
    // The first listed is the locale's default; the others are offered too (offered-voices.ts).
    const externalVoice = external.ttsVoices[def.locale]?.[0];
    const voice = externalVoice !== undefined ? `${OPENAI_TTS_VOICE_PREFIX}${externalVoice}` : espeak ? def.voice : null;
    const apertium = (def.fromEnglish ?? []).find((route) => route.every((mode) => installed.apertiumModes.has(mode)));
    const fromEnglish = voice === null ? null : (externalRoute('en_us', def) ?? (apertium ? [...apertium] : null));
    const fromOthers =
      voice === null
        ? []
        : otherSources.flatMap(([language, locale]) => {
            const route = language === languageOf(def.locale) ? null : externalRoute(locale, def);
            return route ? [[language, route] as const] : [];
          });
    const bundledSource = espeak && def.asrModel !== undefined && installed.hasAsrModel(def.asrModel);
    const entry: ServableLocale = {
      locale: def.locale,
      displayName: def.displayName,
      voice: voice ?? '',
      canBeSource: bundledSource || heard.includes(def.locale),
      canBeTarget: fromEnglish !== null || fromOthers.length > 0,
      translationModes: fromEnglish,
      pivot: pivotOf(fromEnglish),
      ...(fromOthers.length > 0 ? { translationModesFrom: Object.fromEntries(fromOthers) } : {}),
    };
    return { entry, bundledSource };
  });

  // A language heard only through the external recognizer is a source only when something here
  // translates from it: otherwise a project in it could never be dubbed.
  const translatedFrom = new Set(entries.flatMap(({ entry }) => Object.keys(entry.translationModesFrom ?? {})));
  for (const { entry, bundledSource } of entries) {
    const language = languageOf(entry.locale);
    if (entry.canBeSource && !bundledSource && language !== 'en' && !translatedFrom.has(language)) entry.canBeSource = false;
  }
  return entries.map(({ entry }) => entry).filter((entry) => entry.canBeSource || entry.canBeTarget);
}

// apertium names languages with ISO 639-3 or 639-1 codes; the API reports 639-1.
const ISO_639_1: Record<string, string> = { eng: 'en', spa: 'es', cat: 'ca', por: 'pt', ita: 'it', fra: 'fr', glg: 'gl' };

/** The language a two-step apertium route passes through: ['eng-spa', 'es-pt'] → 'es'; null for one step. */
export function pivotOf(modes: readonly string[] | null): string | null {
  if (!modes || modes.length < 2) return null;
  const middle = (modes[0]!.split('-')[1] ?? '').split('_')[0]!;
  return ISO_639_1[middle] ?? middle;
}
