import type { ServableLocale } from '../../shared/engine-capabilities';
import { ApiError } from '../api-error';

/**
 * The voice of each target locale (docs/voices.md): the one the caller chose, which a live
 * worker must offer for that very locale (400 `unsupported_voice` naming `voices.<locale>`
 * otherwise), else the locale's most natural voice (the fleet lists them best first). A locale
 * whose workers published no voices (records from before voices) gets none: it is spoken as
 * before, with the worker's voice for the locale. Checked before anything is written.
 */
export function chooseVoices(capabilities: { locales: readonly ServableLocale[] }, targets: readonly string[], chosen: Readonly<Record<string, string>> | undefined): Record<string, string> {
  for (const locale of Object.keys(chosen ?? {})) {
    if (!targets.includes(locale)) throw ApiError.invalid('invalid_parameter', `voices has a voice for "${locale}", which is not one of the target locales.`, `voices.${locale}`);
  }
  const voices: Record<string, string> = {};
  for (const locale of targets) {
    const offered = capabilities.locales.find((l) => l.locale === locale)?.voices ?? [];
    const id = chosen?.[locale];
    if (id === undefined) {
      if (offered[0]) voices[locale] = offered[0].id;
      continue;
    }
    if (!offered.some((voice) => voice.id === id)) {
      const speaks = capabilities.locales.filter((l) => l.voices?.some((voice) => voice.id === id)).map((l) => l.locale);
      const why = speaks.length > 0 ? `speaks ${speaks.join(', ')}, not ${locale}` : 'is not offered by any live worker';
      throw ApiError.invalid('unsupported_voice', `Voice "${id}" ${why}; see GET /v1/dubbing/voices?locale=${locale}.`, `voices.${locale}`);
    }
    voices[locale] = id;
  }
  return voices;
}
