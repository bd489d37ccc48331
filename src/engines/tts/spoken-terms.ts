import type { GlossaryEntry } from '../../shared/glossary-entry';
import type { VoiceEngine } from '../../shared/offered-voices';
import { targetWording } from '../translate/glossary-translation';
import { findTerms } from '../../shared/glossary-match';

// What the voice is given to say for a line (docs/glossaries.md#pronunciations): each glossary
// term, as the line writes it in the target (the forced translation, the kept term, or the term
// itself), replaced by the entry's pronunciation for the line's locale; the caption keeps the
// written line. Two notations:
//   `[[…]]`  espeak-ng phonemes (`[[R2'ais k'uker p**'o]]`), which espeak-ng reads inline in plain
//            text and in the SSML batches alike; no other engine reads them, so a Festival or
//            external voice says the written term instead.
//   other    a respelling, plain text every engine reads as words ("Rais Cúquer Pro").
// Festival's own lexicon (`lex.add.entry`) is not used: it is per process and per phone set, and a
// respelling reaches its batches unchanged (festival-synthesizer.ts).

const ESPEAK_PHONEMES = /^\[\[[^\][]+\]\]$/;

/** True when the engine reads `pronunciation` as it is written. */
export function readsPronunciation(pronunciation: string, engine: VoiceEngine): boolean {
  return ESPEAK_PHONEMES.test(pronunciation.trim()) ? engine === 'espeak-ng' : pronunciation.trim() !== '';
}

/** `text` as `engine` should say it in `locale`: each term with a pronunciation the engine reads replaced by it. */
export function spokenText(text: string, entries: readonly GlossaryEntry[], locale: string, engine: VoiceEngine): string {
  const said = entries.flatMap((entry) => {
    const pronunciation = entry.pronunciations[locale];
    if (pronunciation === undefined || !readsPronunciation(pronunciation, engine)) return [];
    return [{ term: targetWording(entry, locale) ?? entry.term, case_sensitive: entry.case_sensitive, pronunciation: pronunciation.trim() }];
  });
  if (said.length === 0) return text;
  let out = '';
  let from = 0;
  for (const span of findTerms(text, said)) {
    out += text.slice(from, span.start) + span.entry.pronunciation;
    from = span.end;
  }
  return out + text.slice(from);
}
