import { ApertiumTranslator } from '../../../../src/engines/translate/apertium-translator';
import { translateWithGlossary } from '../../../../src/engines/translate/glossary-translation';
import type { UntranslatedWords } from '../../../../src/engines/translate/translator';
import type { GlossaryEntry } from '../../../../src/shared/glossary-entry';

// Glossary terms through the real apertium, on every route es_es, ca_es and pt_pt are served by
// (the catalog's first route and its fallback, src/engines/locale-catalog.ts), pivots included:
// the placeholder survives each mode, sentence starts, punctuation, a possessive, and is never
// counted as an untranslated word (docs/glossaries.md#enforcement). One apertium run per mode.

const entries: GlossaryEntry[] = [
  { term: 'Rice Cooker Pro', case_sensitive: false, keep: true, translations: {}, pronunciations: {} },
  { term: 'slow cooker', case_sensitive: false, keep: false, translations: { es_es: 'olla lenta', ca_es: 'olla lenta', pt_pt: 'panela lenta' }, pronunciations: {} },
  { term: 'Apple', case_sensitive: true, keep: true, translations: { pt_pt: 'Apple Portugal' }, pronunciations: {} },
];

const texts = [
  'I bought the rice cooker pro yesterday, and it is great.',
  'Rice Cooker Pro is the best cooker. The Rice Cooker Pro!',
  'Do you have a slow cooker? Slow cooker meals are easy.',
  "The Rice Cooker Pro's lid is red, and Apple makes it (Apple).",
  'My slow cooker and my Rice Cooker Pro are cheap; Apple: great. I saw a flibbertigibbet.',
  '"Rice Cooker Pro" - the slow cooker for everyone, not an apple.',
];

const routes: [string, string[]][] = [
  ['es_es', ['eng-cat', 'cat-spa']],
  ['es_es', ['eng-spa']],
  ['ca_es', ['eng-cat']],
  ['ca_es', ['eng-spa', 'spa-cat']],
  ['pt_pt', ['eng-cat', 'cat-por']],
  ['pt_pt', ['eng-spa', 'es-pt']],
];

const translator = new ApertiumTranslator();

it.each(routes)('renders every term as the glossary says in %s through %j', async (locale, modes) => {
  let untranslated: UntranslatedWords | undefined;
  const out = await translateWithGlossary(translator, texts, modes, entries, locale, { onUntranslated: (u) => (untranslated = u) });
  const slow = entries[1]!.translations[locale]!;
  const apple = locale === 'pt_pt' ? 'Apple Portugal' : 'Apple';
  const [mid, start, slowCooker, punctuated, counted, quoted] = out as [string, string, string, string, string, string];

  // Mid-sentence, written in lower case in the source: kept as the glossary writes it.
  expect(mid).toMatch(/^\S+( \S+)? (o|el) Rice Cooker Pro \S+, /);
  // At a sentence start and after one, with the punctuation around it in place.
  expect(start).toMatch(/^Rice Cooker Pro \S+ /);
  expect(start).toMatch(/ (¡?El|O) Rice Cooker Pro!$/);
  // A forced translation, capitalised where it opens a sentence, lower case elsewhere.
  expect(slowCooker).toContain(` ${slow}?`);
  expect(slowCooker).toMatch(new RegExp(`[?] ${slow.charAt(0).toUpperCase()}${slow.slice(1)} `));
  // Next to a possessive, a comma and parentheses; a case-sensitive term only where its case matches.
  expect(punctuated).toMatch(/^(El|O) Rice Cooker Pro /);
  expect(punctuated).toContain(`, `);
  expect(punctuated).toMatch(new RegExp(` ${apple} .*\\(${apple}\\)\\.$`));
  expect(counted).toContain(`${slow} `);
  expect(counted).toContain(` Rice Cooker Pro `);
  expect(counted).toContain(`; ${apple}: `);
  expect(quoted).toMatch(new RegExp(`^"Rice Cooker Pro" - \\S+ ${slow} `));
  expect(quoted).not.toContain('Apple');

  // No placeholder is left, and none counted: the only untranslated word is the real one.
  expect(out.join(' ')).not.toMatch(/zxq/i);
  expect(untranslated).toMatchObject({ words: 1, examples: ['flibbertigibbet'] });
});
