import { readMarks } from '../../../../src/engines/translate/apertium-marks';
import { countUntranslated } from '../../../../src/engines/translate/apertium-translator';
import { prepareEnglish } from '../../../../src/engines/translate/english-preprocess';
import { modeSource, modeTarget } from '../../../../src/engines/translate/mode-languages';
import { prepareForNextStep, tidyTranslation } from '../../../../src/engines/translate/target-postprocess';

// Each glitch below was seen on real apertium output (the benchmark script, bench/script/en.txt,
// through `npm run bench:routes`); the input is apertium's, the expectation what the fix makes of it.

describe('English before apertium (english-preprocess.ts)', () => {
  it('spells out "I\'m sorry" (Catalan read "I\'m sorry" as "Sóc trist", I am sad)', () => {
    expect(prepareEnglish("I'm sorry, but the museum is closed.")).toBe('I am sorry, but the museum is closed.');
    expect(prepareEnglish("Oh i'm sorry.")).toBe('Oh I am sorry.');
  });

  it('drops a question\'s leading do/does auxiliary ("Does anyone…" became "Cervas calquera…", deer)', () => {
    expect(prepareEnglish('Does anyone have a question?')).toBe('Anyone have a question?');
    expect(prepareEnglish('Fine. Do you know why?')).toBe('Fine. You know why?');
    // An imperative "do" is not a question's auxiliary.
    expect(prepareEnglish('Do the dishes.')).toBe('Do the dishes.');
  });

  it('sets "please" off with a comma ("Please buy" became "Complacer comprar", to please)', () => {
    expect(prepareEnglish('Please buy your ticket.')).toBe('Please, buy your ticket.');
    expect(prepareEnglish('Please, buy it.')).toBe('Please, buy it.');
  });

  it('capitalises weekdays, months and a lone "i" (lower case they were unknown: "*mondays", "*i")', () => {
    expect(prepareEnglish('i go on mondays and in june')).toBe('I go on Mondays and in June');
    expect(prepareEnglish("i'd say so")).toBe("I'd say so");
    // "may" and "march" are verbs far more often than months.
    expect(prepareEnglish('we may march')).toBe('we may march');
  });
});

describe('apertium output tidied (target-postprocess.ts)', () => {
  const es = (text: string, source = 'I am sorry.') => tidyTranslation(text, { language: 'es', source });

  it('mends the glued "Losiento ," of "I\'m sorry"', () => {
    expect(es(' Losiento , pero el museo está cerrado.')).toBe('Lo siento, pero el museo está cerrado.');
  });

  it('turns a sentence-initial "Complacer" (please, the verb) into "Por favor"', () => {
    expect(es('Complacer, comprar vuestra entrada.')).toBe('Por favor, comprar vuestra entrada.');
  });

  it('writes "cuando", not the question word "cuándo", for a sentence that opens with the conjunction', () => {
    expect(es('Cuándo llueve, nos quedamos en casa.', 'When it rains, we stay home.')).toBe('Cuando llueve, nos quedamos en casa.');
    expect(es('Dónde vivo, hace frío.', 'Where I live, it is cold.')).toBe('Donde vivo, hace frío.');
    // A real question keeps its accent.
    expect(es('Cuándo llega el autobús?', 'When does the bus arrive?')).toBe('¿Cuándo llega el autobús?');
  });

  it('opens Spanish questions and exclamations with ¿ and ¡', () => {
    expect(es('  Sabes por qué el río es tan importante? Sí. Qué bien!')).toBe('¿Sabes por qué el río es tan importante? Sí. ¡Qué bien!');
    expect(es('¿Ya lo sabes?')).toBe('¿Ya lo sabes?');
  });

  it('lower-cases capitals no name explains ("Gracias Para escuchar", "Penso Que Aprendería")', () => {
    expect(es('Gracias Para escuchar.', 'Thank you for listening.')).toBe('Gracias para escuchar.');
    expect(tidyTranslation('Penso Que Aprendería para tocar o piano.', { language: 'gl', source: 'I think I would learn to play the piano.' })).toBe('Penso que aprendería para tocar o piano.');
  });

  it('keeps capitals when the English has a name, and always keeps acronyms', () => {
    expect(es('Visité Madrid con Ana.', 'I visited Madrid with Ana.')).toBe('Visité Madrid con Ana.');
    expect(es('Visité la UNESCO.', 'I visited the office.')).toBe('Visité la UNESCO.');
  });

  it('removes stray spaces before punctuation, but keeps French spacing before ? ! ; :', () => {
    expect(tidyTranslation('Sinto ,  mais o museo é pechado .', { language: 'gl', source: 'x' })).toBe('Sinto, mais o museo é pechado.');
    expect(tidyTranslation('Tu sais pourquoi ?', { language: 'fr', source: 'x' })).toBe('Tu sais pourquoi ?');
  });

  it('capitalises each sentence start', () => {
    expect(tidyTranslation('buenos días. ¿qué tal?', { language: 'es', source: 'x' })).toBe('Buenos días. ¿Qué tal?');
  });

  it('lower-cases a pivot text\'s sentence starts, which the Catalan analysers took for names ("Ara è aperto")', () => {
    expect(prepareForNextStep('Ara és obert. Quan neva, surto.', { language: 'ca', source: 'Now it is open. When it snows, I go out.' }, 'it')).toBe('ara és obert. quan neva, surto.');
    expect(prepareForNextStep('Ara és a Barcelona.', { language: 'ca', source: 'Now it is in Barcelona.' }, 'it')).toBe('Ara és a Barcelona.');
  });

  it('rewrites Catalan idioms the next pair translates word for word ("de belo novo", "sabe-me grave")', () => {
    const ca = { language: 'ca', source: 'Now it is open again.' };
    expect(prepareForNextStep('Ara és obert de bell nou.', ca, 'pt')).toBe('ara és obert de nou.');
    expect(prepareForNextStep('Em sap greu, però és tancat.', ca, 'pt')).toBe('ho sento, però és tancat.');
    // French and Italian translate the idiom itself right ("je suis désolé", "mi dispiace").
    expect(prepareForNextStep('Em sap greu, però és tancat.', ca, 'fr')).toBe('em sap greu, però és tancat.');
  });
});

describe('untranslated words (apertium-marks.ts, countUntranslated)', () => {
  it('reads * @ # marks, and removes them', () => {
    expect(readMarks('Un *loaf de pan en el #parque con @tiquet.', 'A loaf of bread in the park with a ticket.')).toEqual({
      text: 'Un loaf de pan en el parque con tiquet.',
      words: [
        { word: 'loaf', mark: '*' },
        { word: 'parque', mark: '#' },
        { word: 'tiquet', mark: '@' },
      ],
    });
  });

  it("leaves the customer's own # and @ alone", () => {
    expect(readMarks('Sigue a @ana y #cocina.', 'Follow @ana and #cooking.')).toEqual({ text: 'Sigue a @ana y #cocina.', words: [] });
  });

  it('counts an English word passed through a pivot once, and a pivot word that the second step did not know as a pivot word', () => {
    const step1 = [[{ word: 'loaf', mark: '*' as const }], []];
    const step2 = [
      [
        { word: 'loaf', mark: '*' as const },
        { word: 'blogueaba', mark: '*' as const },
      ],
      [{ word: 'venidero', mark: '*' as const }],
    ];
    expect(countUntranslated([step1, step2])).toEqual({ words: 3, pivotWords: 2, examples: ['loaf', 'blogueaba', 'venidero'] });
    expect(countUntranslated([])).toEqual({ words: 0, pivotWords: 0, examples: [] });
  });
});

describe('mode languages (mode-languages.ts)', () => {
  it('reads ISO 639-1 languages from apertium mode names', () => {
    expect([modeSource('eng-spa'), modeTarget('eng-spa')]).toEqual(['en', 'es']);
    expect([modeSource('es-pt_BR'), modeTarget('es-pt_BR')]).toEqual(['es', 'pt']);
    expect(modeTarget('cat-fra')).toBe('fr');
    expect(modeTarget('eng-cat_valencia')).toBe('ca');
  });
});
