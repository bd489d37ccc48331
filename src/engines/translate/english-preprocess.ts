// English rewritten, before apertium sees it, where a word-for-word transfer is known to go wrong
// on what people say (issue 29; each rule has a unit test in test/unit/engines/translate/). The
// meaning never changes: only the form apertium's English analyser reads best.

const WEEKDAYS_AND_MONTHS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
// "may" and "march" are left alone: as verbs they are far more common in speech.
const CALENDAR_WORD = new RegExp(`\\b(${WEEKDAYS_AND_MONTHS.join('|')})(s?)\\b`, 'g');

// The subjects after which a sentence-initial "do"/"does" can only be the question auxiliary.
const QUESTION_SUBJECT = '(?:you|we|they|I|he|she|it|anyone|anybody|someone|somebody|everyone|everybody|people)';
const QUESTION_AUXILIARY = new RegExp(`(^|[.!?]\\s+)(?:do|does)\\s+(${QUESTION_SUBJECT})\\b`, 'gi');

export function prepareEnglish(text: string): string {
  return (
    text
      // A lower-case "i" (typed, or from a recognizer's dictionary) is unknown to apertium.
      .replace(/\bi\b(?=('(m|ll|ve|d))?\b)/g, 'I')
      // Weekdays and months lower-cased are unknown words: "on mondays" came out as "*mondays".
      .replace(CALENDAR_WORD, (_, name: string, plural: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}${plural}`)
      // "I'm sorry" became "Losiento ," (Spanish) and "Sóc trist" ("I am sad", Catalan); spelt
      // out, Catalan gets "Em sap greu" (Spanish's glued "Losiento" is mended after, see
      // target-postprocess.ts).
      .replace(/\bI'm sorry\b/gi, (match) => `${match.charAt(0)} am sorry`)
      // "Does anyone have a question?" came out as "Cervas calquera…" (Galician: "does", plural of
      // "doe"); without the auxiliary every route reads the question right ("Calquera ten…").
      .replace(QUESTION_AUXILIARY, (_, before: string, subject: string) => `${before}${subject.charAt(0).toUpperCase()}${subject.slice(1)}`)
      // "Please buy…" became "Complacer comprar…" / "Compracer…" (to please); set off by a
      // comma it is read as the interjection ("Por favor, comprar…").
      .replace(/\b(please)\s+(?=[a-z])/gi, (_, please: string) => `${please}, `)
  );
}
