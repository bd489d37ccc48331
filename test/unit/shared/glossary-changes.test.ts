import type { GlossaryEntry } from '../../../src/shared/glossary-entry';
import { changedTerms, localesAffected } from '../../../src/shared/glossary-changes';

// What a change of a project's glossary concerns (docs/glossaries.md#staleness): the entries
// added, removed or changed between two versions, and the locales in which a source line
// renders differently under the new version.

const entry = (term: string, options: Partial<GlossaryEntry> = {}): GlossaryEntry => ({ term, case_sensitive: false, keep: false, translations: {}, pronunciations: {}, ...options });
const LOCALES = ['ca_es', 'es_es'];

describe('changedTerms', () => {
  const rice = entry('rice', { translations: { es_es: 'arroz' } });
  const pro = entry('Rice Cooker Pro', { keep: true, case_sensitive: true });

  it('finds nothing between equal versions, whatever the order of entries and of locale keys', () => {
    const a = [rice, pro, entry('wok', { translations: { es_es: 'wok', ca_es: 'wok' } })];
    const b = [entry('wok', { translations: { ca_es: 'wok', es_es: 'wok' } }), pro, { ...rice }];
    expect(changedTerms(a, b)).toEqual([]);
    expect(changedTerms([], [])).toEqual([]);
  });

  it('names an added entry, a removed one, and both sides of a changed one', () => {
    const wok = entry('wok', { keep: true });
    expect(changedTerms([rice], [rice, wok])).toEqual([wok]);
    expect(changedTerms([rice, wok], [rice])).toEqual([wok]);
    const riceCa = entry('rice', { translations: { es_es: 'arroz', ca_es: 'arròs' } });
    expect(changedTerms([rice], [riceCa])).toEqual([rice, riceCa]);
    for (const changed of [
      { ...rice, keep: true },
      { ...rice, case_sensitive: true },
      { ...rice, pronunciations: { es_es: 'rrais' } },
      { ...rice, translations: { es_es: 'arroz blanco' } },
    ]) {
      expect(changedTerms([rice], [changed])).toEqual([rice, changed]);
    }
    // Another letter case of the term is another term: the old one removed, the new one added.
    const upper = { ...rice, term: 'Rice' };
    expect(changedTerms([rice], [upper])).toEqual([rice, upper]);
    // White space around and inside the term is not a change.
    expect(
      changedTerms(
        [rice, pro],
        [
          { ...rice, term: ' rice ' },
          { ...pro, term: 'Rice  Cooker Pro' },
        ],
      ),
    ).toEqual([]);
  });
});

describe('localesAffected', () => {
  const rice = entry('rice', { translations: { es_es: 'arroz', ca_es: 'arròs' } });
  const pro = entry('Rice Cooker Pro', { keep: true, case_sensitive: true });

  it('stales a line holding an added or removed term in every locale, and no line without it', () => {
    expect(localesAffected('We cook rice today.', [], [rice], LOCALES)).toEqual(LOCALES);
    expect(localesAffected('We cook rice today.', [rice], [], LOCALES)).toEqual(LOCALES);
    expect(localesAffected('We cook pasta today.', [], [rice], LOCALES)).toEqual([]);
    expect(localesAffected('Ricely done.', [], [rice], LOCALES)).toEqual([]);
  });

  it('leaves the locales an added or removed entry does nothing in', () => {
    const riceEs = entry('rice', { translations: { es_es: 'arroz' } });
    expect(localesAffected('We cook rice.', [], [riceEs], LOCALES)).toEqual(['es_es']);
    expect(localesAffected('We cook rice.', [riceEs], [], LOCALES)).toEqual(['es_es']);
    expect(localesAffected('We cook rice.', [], [entry('rice', { keep: true })], LOCALES)).toEqual(LOCALES);
  });

  it('stales a line only in the locales whose rendering of the term changed', () => {
    const riceEs = { ...rice, translations: { ...rice.translations, es_es: 'arroz blanco' } };
    expect(localesAffected('Rice, always rice.', [rice], [riceEs], LOCALES)).toEqual(['es_es']);
    const spoken = { ...rice, pronunciations: { ca_es: 'ə.ˈrɔs' } };
    expect(localesAffected('Rice.', [rice], [spoken], LOCALES)).toEqual(['ca_es']);
  });

  it('follows the case rule: a case-sensitive change leaves lines with the other case alone', () => {
    const proEs = { ...pro, translations: { es_es: 'Arrocera Pro' } };
    expect(localesAffected('the Rice Cooker Pro', [pro], [proEs], LOCALES)).toEqual(['es_es']);
    expect(localesAffected('the rice cooker pro', [pro], [proEs], LOCALES)).toEqual([]);
    // Case-insensitive from now on: the lower-case line now holds the term.
    expect(localesAffected('the rice cooker pro', [pro], [{ ...pro, case_sensitive: false }], LOCALES)).toEqual(LOCALES);
  });

  it('leaves a line whose changed term sits inside a longer term that is unchanged', () => {
    const riceEs = { ...rice, translations: { es_es: 'arroz blanco', ca_es: 'arròs' } };
    expect(localesAffected('Buy the Rice Cooker Pro.', [pro, rice], [pro, riceEs], LOCALES)).toEqual([]);
    expect(localesAffected('Buy the Rice Cooker Pro for rice.', [pro, rice], [pro, riceEs], LOCALES)).toEqual(['es_es']);
  });
});
