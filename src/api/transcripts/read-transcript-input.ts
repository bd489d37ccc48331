import type { Cue } from '../../db/source-segments';
import type { TimedText } from '../../shared/cue-text-bounds';
import { readTranscript, TranscriptFileError } from '../../shared/transcript-file';
import type { TranscriptFormat } from '../../shared/transcript-format';
import { ApiError } from '../api-error';

/** A transcript file as a request body sends it (transcript-file.schema.ts). */
export interface TranscriptFileInput {
  format: TranscriptFormat;
  content: string;
  /** SubRip only: a line's leading `NAME:` is its speaker (docs/editing.md#speakers-in-a-script). */
  speaker_prefixes?: boolean;
}

/** A cue to store, with the speaker's label when the file names one (docs/editing.md#speakers-in-a-script). */
export type SuppliedCue = Cue & { speaker?: string };

/**
 * A transcript file from a request body, as the cues to store, or 400 `invalid_transcript` with
 * `param` naming the content field and a message naming the cue
 * (docs/editing.md#bring-your-own-script). Refused before anything is written.
 * @param durationSeconds the source's, once measured; null before (no end is checked then).
 * @param param the content field (`transcript.content`, `content`): a refused `speaker_prefixes` is named as its sibling.
 * @param known the transcript's segments now, which a cue may repeat however short (src/shared/cue-text-bounds.ts).
 */
export function readTranscriptInput(file: TranscriptFileInput, durationSeconds: number | null, param: string, known: readonly Cue[] = []): SuppliedCue[] {
  if (file.speaker_prefixes && file.format !== 'srt') {
    const field = param.replace(/(^|\.)content$/, '$1speaker_prefixes');
    throw ApiError.invalid('invalid_parameter', `${field} is for SubRip files only (format srt): a ${file.format} file names its speakers itself.`, field);
  }
  try {
    const cues = readTranscript(file.format, file.content, durationSeconds, known.map(timedText), { speakerPrefixes: file.speaker_prefixes === true });
    return cues.map((cue) => {
      const supplied: SuppliedCue = { start_seconds: cue.startSeconds, end_seconds: cue.endSeconds, text: cue.text.trim() };
      if (cue.speaker !== undefined) supplied.speaker = cue.speaker;
      return supplied;
    });
  } catch (err) {
    if (err instanceof TranscriptFileError) throw ApiError.invalid('invalid_transcript', `${err.message}.`, param);
    throw err;
  }
}

const timedText = (cue: Cue): TimedText => ({ startSeconds: cue.start_seconds, endSeconds: cue.end_seconds, text: cue.text });

/**
 * Translations supplied at create, by locale: each must be one of the project's targets.
 * @param within what to keep of each file's cues (a preview's range, docs/previews.md#supplied-scripts).
 */
export function readTranslationInputs(
  files: Record<string, TranscriptFileInput>,
  targets: string[],
  within: (cues: SuppliedCue[], locale: string) => SuppliedCue[] = (cues) => cues,
): Record<string, SuppliedCue[]> {
  const translations: Record<string, SuppliedCue[]> = {};
  for (const [locale, file] of Object.entries(files)) {
    if (!targets.includes(locale)) throw ApiError.invalid('invalid_parameter', `translations.${locale}: ${locale} is not one of target_locales (${targets.join(', ')}).`, `translations.${locale}`);
    translations[locale] = within(readTranscriptInput(file, null, `translations.${locale}.content`), locale);
  }
  return translations;
}
