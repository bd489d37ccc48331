import type { ServableLocale } from '../../shared/engine-capabilities';
import { ApiError } from '../api-error';

/** `voices.<locale>` as a request sends it: one voice for the language, or one per speaker label (docs/speakers.md#voices). */
export type VoiceRequest = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

export interface ChosenVoices {
  /** The voice of each target locale: every render speaks with it where a speaker has none of their own. */
  languages: Record<string, string>;
  /** Per-speaker voices by locale, then by speaker label, as the request named them. */
  speakers: Record<string, Record<string, string>>;
}

/**
 * The voice of each target locale (docs/voices.md): the one the caller chose, which a live
 * worker must offer for that very locale (400 `unsupported_voice` naming `voices.<locale>`
 * otherwise), else the locale's most natural voice (the fleet lists them best first). A locale
 * whose workers published no voices (records from before voices) gets none: it is spoken as
 * before, with the worker's voice for the locale. Checked before anything is written.
 * A per-speaker map names speakers by label: each must be one of `labels` (the supplied
 * transcript's, or the project's speakers'), else 400 naming `voices.<locale>.<label>`.
 */
export function chooseVoices(capabilities: { locales: readonly ServableLocale[] }, targets: readonly string[], chosen: VoiceRequest | undefined, labels: readonly string[] = []): ChosenVoices {
  for (const locale of Object.keys(chosen ?? {})) {
    if (!targets.includes(locale)) throw ApiError.invalid('invalid_parameter', `voices has a voice for "${locale}", which is not one of the target locales.`, `voices.${locale}`);
  }
  const result: ChosenVoices = { languages: {}, speakers: {} };
  for (const locale of targets) {
    const offered = capabilities.locales.find((l) => l.locale === locale)?.voices ?? [];
    const check = (id: string, param: string) => {
      if (offered.some((voice) => voice.id === id)) return id;
      const speaks = capabilities.locales.filter((l) => l.voices?.some((voice) => voice.id === id)).map((l) => l.locale);
      const why = speaks.length > 0 ? `speaks ${speaks.join(', ')}, not ${locale}` : 'is not offered by any live worker';
      throw ApiError.invalid('unsupported_voice', `Voice "${id}" ${why}; see GET /v1/dubbing/voices?locale=${locale}.`, param);
    };
    const request = chosen?.[locale];
    if (typeof request === 'string') {
      result.languages[locale] = check(request, `voices.${locale}`);
      continue;
    }
    if (offered[0]) result.languages[locale] = offered[0].id;
    if (request === undefined) continue;
    if (labels.length === 0) {
      throw ApiError.invalid(
        'invalid_parameter',
        `voices.${locale} names speakers, but no transcript names any yet: give one voice, or set detected speakers' voices with PATCH …/speakers/{speaker_id}.`,
        `voices.${locale}`,
      );
    }
    result.speakers[locale] = {};
    for (const [label, id] of Object.entries(request)) {
      if (!labels.includes(label))
        throw ApiError.invalid('invalid_parameter', `voices.${locale} names "${label}", who is not a speaker (speakers: ${labels.join(', ')}).`, `voices.${locale}.${label}`);
      result.speakers[locale][label] = check(id, `voices.${locale}.${label}`);
    }
  }
  return result;
}
