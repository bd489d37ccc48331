import { EngineRejectedError, EngineResponseError } from '../../../../src/engines/external/engine-errors';
import { libreTranslateCode, offeredCodes, parseLanguages } from '../../../../src/engines/external/libretranslate-languages';
import { LibreTranslateTranslator } from '../../../../src/engines/external/libretranslate-translator';
import { translateWithGlossary } from '../../../../src/engines/translate/glossary-translation';
import type { GlossaryEntry } from '../../../../src/shared/glossary-entry';
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../../../fakes/libretranslate-server';

let server: FakeLibreTranslate;
const translator = (apiKey: string | null = 'lt-key-0123') => new LibreTranslateTranslator({ url: server.url, apiKey, timeoutMs: 5_000, maxAttempts: 2 }, { sleep: async () => undefined });

beforeAll(async () => {
  server = await startFakeLibreTranslate({ en: ['es', 'de', 'pb'], de: ['en', 'es'] });
  server.requiredKey = 'lt-key-0123';
});
afterAll(() => server.close());
beforeEach(() => {
  server.calls.length = 0;
});

describe('GET /languages', () => {
  it('reads the pairs the server translates', async () => {
    const pairs = await translator().languages();
    expect([...pairs.entries()].map(([from, to]) => [from, [...to]])).toEqual([
      ['en', ['es', 'de', 'pb']],
      ['de', ['en', 'es']],
    ]);
  });

  it('takes a server without targets (before LibreTranslate 1.3) as translating every language into every other', () => {
    const pairs = parseLanguages([
      { code: 'en', name: 'English' },
      { code: 'fr', name: 'French' },
      { code: 'de', name: 'German' },
    ]);
    expect([...pairs!.get('fr')!]).toEqual(['en', 'de']);
    expect(parseLanguages({ error: 'nope' })).toBeNull();
    expect(parseLanguages([{ name: 'no code' }])).toBeNull();
  });

  it("names a locale by its language, or LibreTranslate's regional code when the server has it", () => {
    const codes = offeredCodes(parseLanguages([{ code: 'en', targets: ['pb', 'pt', 'zt'] }])!);
    expect(['de_de', 'pt_br', 'pt_pt', 'zh_tw', 'zh_cn'].map((l) => libreTranslateCode(l, codes))).toEqual(['de', 'pb', 'pt', 'zt', 'zh']);
    expect(libreTranslateCode('pt_br', new Set(['pt']))).toBe('pt');
  });
});

describe('POST /translate', () => {
  it('sends q as an array with source, target, format text and the key, blanks kept out', async () => {
    const out = await translator().translate(['Hello  there.', '', 'Good\nmorning.'], ['libretranslate:en-es']);
    expect(out).toEqual(['[es] Hello there.', '', '[es] Good morning.']);
    expect(server.calls).toEqual([{ path: '/translate', status: 200, body: { q: ['Hello there.', 'Good morning.'], source: 'en', target: 'es', format: 'text', api_key: 'lt-key-0123' } }]);
  });

  it("splits a long transcript into requests a server's character limit takes", async () => {
    const texts = Array.from({ length: 250 }, (_, i) => `Sentence number ${i} of a long video.`);
    const out = await translator().translate(texts, ['libretranslate:en-de']);
    expect(out[249]).toBe('[de] Sentence number 249 of a long video.');
    expect(server.calls.length).toBeGreaterThanOrEqual(3);
    for (const call of server.calls) expect((call.body!.q as string[]).join('').length).toBeLessThanOrEqual(5_000);
  });

  it('refuses a route that is not its own, a 4xx, and an answer with another count', async () => {
    await expect(translator().translate(['Hi.'], ['eng-spa'])).rejects.toThrow(RangeError);
    await expect(translator('wrong').translate(['Hi.'], ['libretranslate:en-es'])).rejects.toMatchObject({ name: 'EngineRejectedError', status: 403 });
    await expect(translator().translate(['Hi.'], ['libretranslate:de-fr'])).rejects.toBeInstanceOf(EngineRejectedError);
    server.failNext('/translate', 1, { status: 200, body: { translatedText: ['[es] one'] } });
    await expect(translator().translate(['One.', 'Two.'], ['libretranslate:en-es'])).rejects.toBeInstanceOf(EngineResponseError);
  });
});

describe('glossary terms (docs/glossaries.md#enforcement)', () => {
  const entries: GlossaryEntry[] = [
    { term: 'Rice Cooker Pro', case_sensitive: false, keep: true, translations: {}, pronunciations: {} },
    { term: 'slow cooker', case_sensitive: false, keep: false, translations: { es_es: 'olla lenta' }, pronunciations: {} },
  ];

  it('sends them as HTML elements the server leaves untranslated, and puts the glossary wording in their place', async () => {
    const out = await translateWithGlossary(translator(), ['rice cooker pro & co.', 'No terms <here>.', 'A slow cooker? Slow cooker meals.'], ['libretranslate:en-es'], entries, 'es_es');
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.body).toMatchObject({
      format: 'html',
      q: [
        '<span translate="no" id="g1">rice cooker pro</span> &amp; co.',
        'No terms &lt;here&gt;.',
        'A <span translate="no" id="g1">slow cooker</span>? <span translate="no" id="g2">Slow cooker</span> meals.',
      ],
    });
    // The fake puts "[es] " before each text; the server's escapes are read back as text.
    expect(out).toEqual(['[es] Rice Cooker Pro & co.', '[es] No terms <here>.', '[es] A olla lenta? Olla lenta meals.']);
  });

  it('keeps plain text when the glossary settles nothing for the target', async () => {
    await translateWithGlossary(translator(), ['A slow cooker.'], ['libretranslate:en-de'], [entries[1]!], 'de_de');
    expect(server.calls[0]!.body).toMatchObject({ format: 'text', q: ['A slow cooker.'] });
  });
});
