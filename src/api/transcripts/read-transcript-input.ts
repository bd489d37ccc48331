import type { Cue } from '../../db/source-segments';
import type { TimedText } from '../../shared/cue-text-bounds';
import { readTranscript, TranscriptFileError } from '../../shared/transcript-file';
import type { TranscriptFormat } from '../../shared/transcript-format';
import { ApiError } from '../api-error';

/**
 * A transcript file from a request body, as the cues to store, or 400 `invalid_transcript` with
 * `param` naming the content field and a message naming the cue
 * (docs/editing.md#bring-your-own-script). Refused before anything is written.
 * @param durationSeconds the source's, once measured; null before (no end is checked then).
 * @param known the transcript's segments now, which a cue may repeat however short (src/shared/cue-text-bounds.ts).
 */
export function readTranscriptInput(file: { format: TranscriptFormat; content: string }, durationSeconds: number | null, param: string, known: readonly Cue[] = []): Cue[] {
  try {
    return readTranscript(file.format, file.content, durationSeconds, known.map(timedText)).map((cue) => ({ start_seconds: cue.startSeconds, end_seconds: cue.endSeconds, text: cue.text.trim() }));
  } catch (err) {
    if (err instanceof TranscriptFileError) throw ApiError.invalid('invalid_transcript', `${err.message}.`, param);
    throw err;
  }
}

const timedText = (cue: Cue): TimedText => ({ startSeconds: cue.start_seconds, endSeconds: cue.end_seconds, text: cue.text });

/** Translations supplied at create, by locale: each must be one of the project's targets. */
export function readTranslationInputs(files: Record<string, { format: TranscriptFormat; content: string }>, targets: string[]): Record<string, Cue[]> {
  const translations: Record<string, Cue[]> = {};
  for (const [locale, file] of Object.entries(files)) {
    if (!targets.includes(locale)) throw ApiError.invalid('invalid_parameter', `translations.${locale}: ${locale} is not one of target_locales (${targets.join(', ')}).`, `translations.${locale}`);
    translations[locale] = readTranscriptInput(file, null, `translations.${locale}.content`);
  }
  return translations;
}
