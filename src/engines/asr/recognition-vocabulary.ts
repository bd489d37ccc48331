import type { GlossaryEntry } from '../../shared/glossary-entry';

// Glossary terms as hints for the recognizer (docs/glossaries.md#recognition). An external
// OpenAI-compatible engine takes them as its `prompt` (whisper conditions on the prompt's
// spelling). pocketsphinx takes pronunciations: a one-word term whose source-locale
// pronunciation is CMU ARPAbet ("W IH N") is added to the call's dictionary as another way to say
// the word. pocketsphinx only ever hears words its language model has, and the bundled model
// cannot be extended per call, so a pronunciation helps a word the model knows that the
// speaker says differently from the dictionary (a name, a brand read as a common word); a word
// unknown to the model stays unheard.

export interface VocabularyTerm {
  /** As the transcript should write it. */
  text: string;
  /** CMU ARPAbet phones without stress marks ("N UW Y EH N"), when the glossary gives them. */
  arpabet?: string;
}

/** The 39 phones of CMU ARPAbet, which pocketsphinx's en-us model uses. */
const ARPABET = new Set('AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '));

/** `pronunciation` as pocketsphinx's phones, stress digits dropped, or null when it is not ARPAbet. */
export function arpabetPhones(pronunciation: string): string | null {
  const phones = pronunciation
    .trim()
    .split(/\s+/)
    .map((p) => p.replace(/[012]$/, ''));
  return phones.length > 0 && phones.every((p) => ARPABET.has(p)) ? phones.join(' ') : null;
}

/** The terms of a glossary a recognizer of `sourceLocale` is told about. */
export function recognitionVocabulary(entries: readonly GlossaryEntry[], sourceLocale: string): VocabularyTerm[] {
  return entries.map((entry) => {
    const pronunciation = entry.pronunciations[sourceLocale];
    const arpabet = pronunciation === undefined ? null : arpabetPhones(pronunciation);
    return arpabet ? { text: entry.term, arpabet } : { text: entry.term };
  });
}

/**
 * Dictionary lines adding each one-word term's pronunciation, as pocketsphinx writes alternatives
 * (`word(2) PHONES`); `variants` is how many pronunciations the dictionary has for a word already.
 */
export function dictionaryAdditions(terms: readonly VocabularyTerm[], variants: (word: string) => number): string[] {
  const added = new Map<string, number>();
  const lines: string[] = [];
  for (const { text, arpabet } of terms) {
    const word = text.trim().toLowerCase();
    if (!arpabet || !/^[\p{Ll}\p{N}'.-]+$/u.test(word)) continue;
    const n = (added.get(word) ?? variants(word)) + 1;
    added.set(word, n);
    lines.push(`${n === 1 ? word : `${word}(${n})`} ${arpabet}`);
  }
  return lines;
}

/** Most characters of the prompt: OpenAI's takes 224 tokens; a term list of this length fits. */
const MAX_PROMPT_CHARS = 600;

/** The terms as a transcription `prompt`: their spelling, comma-separated, as many as fit. */
export function vocabularyPrompt(terms: readonly VocabularyTerm[]): string | null {
  let prompt = '';
  for (const { text } of terms) {
    const next = prompt ? `${prompt}, ${text.trim()}` : text.trim();
    if (next.length > MAX_PROMPT_CHARS) break;
    prompt = next;
  }
  return prompt ? `${prompt}.` : null;
}
