import { apertiumPlaceholders, isPlaceholderWord } from '../../../../src/engines/translate/apertium-placeholders';
import { protectedTermsFor, targetWording } from '../../../../src/engines/translate/glossary-translation';
import { placedReplacement } from '../../../../src/engines/translate/protected-terms';
import { htmlToText, libreTranslatePlaceholders } from '../../../../src/engines/external/libretranslate-placeholders';
import type { GlossaryEntry } from '../../../../src/shared/glossary-entry';

const entry = (term: string, rest: Partial<GlossaryEntry> = {}): GlossaryEntry => ({ term, case_sensitive: false, keep: true, translations: {}, pronunciations: {}, ...rest });
describe('what the target says (glossary-translation.ts)', () => {
  const cooker = entry('Rice Cooker Pro', { keep: true, translations: { es_es: 'olla arrocera Pro' } });
  const slow = entry('slow cooker', { keep: false, translations: { pt_pt: 'panela lenta' } });

  it('is the forced translation, else the term as the glossary writes it when kept, else nothing', () => {
    expect(targetWording(cooker, 'es_es')).toBe('olla arrocera Pro');
    expect(targetWording(cooker, 'ca_es')).toBe('Rice Cooker Pro');
    expect(targetWording(slow, 'ca_es')).toBeNull();
  });

  it('protects only the terms the glossary settles for the locale', () => {
    const text = 'My rice cooker pro is a slow cooker.';
    expect(protectedTermsFor(text, [cooker, slow], 'ca_es')).toEqual([{ start: 3, end: 18, replacement: 'Rice Cooker Pro' }]);
    expect(protectedTermsFor(text, [cooker, slow], 'pt_pt')).toEqual([
      { start: 3, end: 18, replacement: 'Rice Cooker Pro' },
      { start: 24, end: 35, replacement: 'panela lenta' },
    ]);
  });
});

describe('placedReplacement', () => {
  it('capitalises a lower-case first word that opens a sentence, nothing else', () => {
    expect(placedReplacement('olla arrocera', '')).toBe('Olla arrocera');
    expect(placedReplacement('olla arrocera', 'Sí. ¿')).toBe('Olla arrocera');
    expect(placedReplacement('olla arrocera', 'Tengo una ')).toBe('olla arrocera');
    expect(placedReplacement('iPhone', '')).toBe('iPhone');
    expect(placedReplacement('eBay', 'Fin. ')).toBe('eBay');
  });
});

describe("apertium's placeholder", () => {
  const terms = [
    { start: 4, end: 19, replacement: 'olla arrocera Pro' },
    { start: 23, end: 27, replacement: 'Acme' },
  ];

  it('is an unknown word per span, numbered from 1, restored however apertium cased and marked it', () => {
    const text = 'The Rice Cooker Pro by Acme.';
    expect(apertiumPlaceholders.encode(text, terms)).toBe('The zxq1 by zxq2.');
    expect(apertiumPlaceholders.decode('La zxq1 de ZXQ2.', terms)).toBe('La olla arrocera Pro de Acme.');
    expect(apertiumPlaceholders.decode('Zxq1 de zxq2.', terms)).toBe('Olla arrocera Pro de Acme.');
  });

  it('parts a suffix apertium glued on, and leaves a number no span has', () => {
    expect(apertiumPlaceholders.decode('El zxq1ha la tapa, zxq7.', terms)).toBe('El olla arrocera Pro ha la tapa, zxq7.');
  });

  it('tells its words from the untranslated ones', () => {
    expect(['zxq1', 'Zxq12', 'zxq1ha', 'zxq', 'flibbertigibbet'].map(isPlaceholderWord)).toEqual([true, true, true, false, false]);
  });
});

describe("LibreTranslate's placeholder", () => {
  const terms = [{ start: 4, end: 19, replacement: 'olla arrocera <Pro>' }];

  it('is a translate="no" element holding the source words, the rest escaped', () => {
    expect(libreTranslatePlaceholders.encode('The Rice Cooker Pro & <co>.', terms)).toBe('The <span translate="no" id="g1">Rice Cooker Pro</span> &amp; &lt;co&gt;.');
  });

  it('is found by its id whatever the server did to the element, and the answer read as text', () => {
    const answer = 'La <span id="g1" translate="no">Rice Cooker Pro</span> &amp; &lt;co&gt;&nbsp;&#191;s&iacute;?';
    expect(libreTranslatePlaceholders.decode(answer, terms)).toBe('La olla arrocera <Pro> & <co>\u00a0¿s&iacute;?');
    expect(libreTranslatePlaceholders.decode('<span translate="no" id="g1">Rice Cooker Pro</span>.', terms)).toBe('Olla arrocera <Pro>.');
    expect(htmlToText('<b>a</b> &lt;b&gt;')).toBe('a <b>');
  });
});
