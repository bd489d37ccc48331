import type { ServableLocale } from '../../shared/engine-capabilities';
import { routeFrom } from '../../shared/translation-route';
import { ApiError } from '../api-error';

/**
 * Refuses, at request time, any language pair the workers' engines cannot serve (their union,
 * see src/fleet); a project never discovers mid-dub that a locale is impossible. A target must
 * be translatable from the source's language: external translators may serve a source language
 * into some targets only (docs/engines.md).
 */
export function checkLocales(capabilities: { locales: readonly ServableLocale[] }, sourceLocale: string, targets: string[], targetParam = 'target_locales'): void {
  const source = capabilities.locales.find((l) => l.locale === sourceLocale);
  if (!source?.canBeSource) {
    throw ApiError.invalid('unsupported_locale', `"${sourceLocale}" is not a supported source locale; see GET /v1/dubbing/locales.`, 'source_locale');
  }
  targets.forEach((locale, index) => {
    const target = capabilities.locales.find((l) => l.locale === locale);
    if (!target?.canBeTarget) {
      throw ApiError.invalid('unsupported_locale', `"${locale}" is not a supported target locale; see GET /v1/dubbing/locales.`, `${targetParam}[${index}]`);
    }
    if (locale === sourceLocale) {
      throw ApiError.invalid('invalid_parameter', `Target locale "${locale}" is the source locale.`, `${targetParam}[${index}]`);
    }
    if (routeFrom(target, sourceLocale) === null) {
      throw ApiError.invalid('unsupported_locale', `"${locale}" cannot be translated from "${sourceLocale}" by the workers' engines; see GET /v1/dubbing/locales.`, `${targetParam}[${index}]`);
    }
  });
}
