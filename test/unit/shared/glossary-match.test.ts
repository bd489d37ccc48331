import type { GlossaryEntry } from '../../../src/shared/glossary-entry';
import { findTerms, textHasTerm } from '../../../src/shared/glossary-match';

// The one term matcher (docs/glossaries.md#matching): whole words and phrases by Unicode letters
// and digits, each entry's case rule, the longest of overlapping terms, in text order.

const entry = (term: string, options: Partial<GlossaryEntry> = {}): GlossaryEntry => ({ term, case_sensitive: false, keep: true, translations: {}, pronunciations: {}, ...options });
const found = (text: string, entries: GlossaryEntry[]) => findTerms(text, entries).map((m) => [m.entry.term, text.slice(m.start, m.end)]);

it('matches whole words and phrases only, in any case unless the entry is case-sensitive', () => {
  const pro = entry('Pro');
  expect(textHasTerm('The Pro model.', pro)).toBe(true);
  expect(textHasTerm('the pro model', pro)).toBe(true);
  expect(textHasTerm('Professional cooks', pro)).toBe(false);
  expect(textHasTerm('ProPro', pro)).toBe(false);
  expect(textHasTerm('the (Pro), please', pro)).toBe(true);
  const sensitive = entry('Apple', { case_sensitive: true });
  expect(textHasTerm('Apple pie', sensitive)).toBe(true);
  expect(textHasTerm('apple pie', sensitive)).toBe(false);
  expect(textHasTerm('APPLE pie', sensitive)).toBe(false);
});

it('takes Unicode letters, marks and digits as word characters', () => {
  expect(textHasTerm('un café solo', entry('café'))).toBe(true);
  expect(textHasTerm('cafés', entry('café'))).toBe(false);
  // "cafe" followed by a combining acute accent is a longer word than "cafe".
  expect(textHasTerm('un cafe\u0301 solo', entry('cafe'))).toBe(false);
  expect(textHasTerm('model X200 today', entry('X200'))).toBe(true);
  expect(textHasTerm('model X2000', entry('X200'))).toBe(false);
  expect(textHasTerm('ÉCOLE publique', entry('école'))).toBe(true);
  expect(textHasTerm('Straße', entry('Straß'))).toBe(false);
});

it('needs no boundary at an edge that is not a word character, and escapes what regular expressions would read', () => {
  expect(found('I write C++ and C#, not C.', [entry('C++'), entry('C#')])).toEqual([
    ['C++', 'C++'],
    ['C#', 'C#'],
  ]);
  expect(textHasTerm('on .NET today', entry('.NET'))).toBe(true);
  expect(textHasTerm('a+b', entry('a.b'))).toBe(false);
  expect(textHasTerm('cost (approx.)', entry('(approx.)'))).toBe(true);
});

it('lets white space inside a term match any run of white space', () => {
  expect(found('The Rice\n  Cooker is here', [entry('Rice Cooker')])).toEqual([['Rice Cooker', 'Rice\n  Cooker']]);
  expect(textHasTerm('RiceCooker', entry('Rice Cooker'))).toBe(false);
});

it('finds every occurrence, the longest of overlapping terms first, without overlaps, in text order', () => {
  const entries = [entry('Rice'), entry('Rice Cooker'), entry('Rice Cooker Pro', { case_sensitive: true }), entry('Cooker Pro Max')];
  expect(found('Rice first; then the Rice Cooker Pro; a rice cooker pro; RICE.', entries)).toEqual([
    ['Rice', 'Rice'],
    ['Rice Cooker Pro', 'Rice Cooker Pro'],
    // Not case-sensitive "Rice Cooker Pro": the longest that matches here is "Rice Cooker".
    ['Rice Cooker', 'rice cooker'],
    ['Rice', 'RICE'],
  ]);
  // Two overlapping terms of one length: the earlier wins.
  expect(found('big red dog', [entry('red dog'), entry('big red')])).toEqual([['big red', 'big red']]);
  const matches = findTerms('a Rice Cooker Pro Max', entries);
  expect(matches.map((m) => [m.start, m.end])).toEqual([[2, 17]]);
});

it('matches nothing for no entries or a text without them', () => {
  expect(findTerms('Rice', [])).toEqual([]);
  expect(findTerms('', [entry('Rice')])).toEqual([]);
  // A matcher is reused across calls: a found term is found again.
  const rice = entry('rice');
  expect([textHasTerm('rice', rice), textHasTerm('rice', rice), textHasTerm('no', rice)]).toEqual([true, true, false]);
});
