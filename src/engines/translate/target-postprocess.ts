// apertium's output tidied where it is known to go wrong (issue 29; each rule has a unit test in
// test/unit/engines/translate/): stray spaces, glued multiwords, capitals the source never had,
// Spanish questions without their opening mark. Only the form changes, never a word's choice.

export interface TidyContext {
  /** The output's language, ISO 639-1 ('es', 'ca', 'fr', 'pt', …). */
  language: string;
  /** The English segment this translates, as apertium was given it. */
  source: string;
}

const CALENDAR = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)s?$/i;
const SENTENCE_END = /[.!?…]/;
/** English opening with when/where/how as a conjunction: not followed by a question's auxiliary. */
const CONJUNCTION_START = /^(when|where|how)\s+(?!(do|does|did|is|are|was|were|will|would|can|could|should|shall|may|might|must|have|has|had|am)\b)\w/i;

/** True when the English has a capital that is not a sentence start, "I", or a weekday/month: a name. */
function sourceHasNames(source: string): boolean {
  const words = source.split(/\s+/).filter(Boolean);
  return words.some((word, i) => {
    const bare = word.replace(/^[^\p{L}]+|[^\p{L}']+$/gu, '');
    if (!/^\p{Lu}/u.test(bare)) return false;
    const atStart = i === 0 || SENTENCE_END.test(words[i - 1]!.slice(-1));
    return !atStart && !/^I('(m|ll|ve|d))?$/.test(bare) && !CALENDAR.test(bare);
  });
}

/** Title-case words that start no sentence, lower-cased (all-capital words, such as acronyms, stay). */
function lowerStrayCapitals(text: string): string {
  return text.replace(/(^|[\s"«(¿¡]+)(\p{Lu}\p{Ll}+)/gu, (whole, before: string, word: string, offset: number) => {
    const preceding = text.slice(0, offset).trimEnd();
    const startsSentence = preceding === '' || SENTENCE_END.test(preceding.slice(-1)) || /[¿¡"«(]\s*$/.test(text.slice(0, offset + before.length));
    return startsSentence ? whole : `${before}${word.toLowerCase()}`;
  });
}

/** Each sentence that ends in ? (or !) opens with ¿ (or ¡), as Spanish writes it. */
function spanishOpeningMarks(text: string): string {
  return text.replace(/(^|[.!?…]\s+)([^.!?…]*?)([?!])(?=\s|$)/g, (whole, before: string, sentence: string, end: string) => {
    const opening = end === '?' ? '¿' : '¡';
    return sentence.includes(opening) ? whole : `${before}${opening}${sentence}${end}`;
  });
}

/** The first letter of each sentence upper-cased (after any opening ¿ ¡ " « or parenthesis). */
function capitalizeSentences(text: string): string {
  return text.replace(/(^|[.!?…]\s+)([¿¡"«(]*)(\p{Ll})/gu, (_, before: string, opening: string, letter: string) => `${before}${opening}${letter.toUpperCase()}`);
}

/**
 * A pivot language's text made ready for the route's next step: tidied like a final text, and,
 * when the English has no names, each sentence's first word lower-cased. apertium's Catalan
 * analysers take an unknown-looking capitalised word for a name and pass it on unmarked: "Ara és
 * obert" (now it is open) came out in Italian as "Ara è aperto", "ara és obert" as "adesso è aperto".
 */
export function prepareForNextStep(text: string, context: TidyContext, nextLanguage: string): string {
  let tidied = tidyTranslation(text, context);
  if (context.language === 'ca') {
    // Catalan idioms the next pair translates word for word: "de bell nou" (again) became
    // Portuguese "de belo novo"; "em sap greu" (I'm sorry) became "sabe-me grave" and Spanish
    // "me sabe mal". French and Italian read "em sap greu" right ("je suis désolé", "mi dispiace").
    tidied = tidied.replace(/\b([Dd])e bell nou\b/g, '$1e nou');
    if (nextLanguage === 'pt' || nextLanguage === 'es') tidied = tidied.replace(/\b([Ee])m sap greu\b/g, (_, e: string) => (e === 'E' ? 'Ho sento' : 'ho sento'));
  }
  if (sourceHasNames(context.source)) return tidied;
  return tidied.replace(/(^|[.!?…]\s+)([¿¡"«(]*)(\p{Lu})(?=\p{Ll})/gu, (_, before: string, opening: string, letter: string) => `${before}${opening}${letter.toLowerCase()}`);
}

export function tidyTranslation(text: string, { language, source }: TidyContext): string {
  let out = text.replace(/\s+/g, ' ').trim();
  // French sets a space before ; : ! ? (and apertium writes it); no other target language does.
  out = out.replace(language === 'fr' ? /\s+([,.)…])/g : /\s+([,.;:!?)…])/g, '$1').replace(/([¿¡(])\s+/g, '$1');
  if (language === 'es') {
    // "I'm sorry" → " Losiento ,": the multiword's space lost in generation.
    out = out.replace(/\b([Ll])osiento\b/g, '$1o siento');
    // "Please …" read as the verb "to please" when nothing sets it off.
    out = out.replace(/(^|[.!?]\s+)Complacer\b,?\s*/g, '$1Por favor, ');
    // "When it rains, …" → "Cuándo llueve, …": the conjunction written as the question word.
    if (CONJUNCTION_START.test(source))
      out = out
        .replace(/^Cuándo\b/, 'Cuando')
        .replace(/^Dónde\b/, 'Donde')
        .replace(/^Cómo\b/, 'Como');
    out = spanishOpeningMarks(out);
  }
  // "Thank you for listening" → "Gracias Para escuchar", "I think that" → "Penso Que": a capital
  // mid-sentence that no name in the English explains.
  if (!sourceHasNames(source)) out = lowerStrayCapitals(out);
  return capitalizeSentences(out);
}
