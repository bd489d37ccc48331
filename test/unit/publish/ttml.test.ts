import { parseVtt, toVtt, type Cue } from '../../../src/publish/captions';
import { bcp47, escapeXml, IMSC_1_1_TEXT_PROFILE, toTtml } from '../../../src/publish/ttml';
import { checkTtml, IMSC_1_1_TEXT } from '../../helpers/ttml-checks';

// The TTML deliverable (docs/captions.md#ttml): IMSC 1.1 Text Profile, from the same cues as the
// SRT and WebVTT. Each document here is held to checkTtml: xmllint, a namespace-aware strict
// parse with the profile's structural rules, and imscJS (the IMSC reference renderer).

const CUES: Cue[] = [
  { startSeconds: 0.42, endSeconds: 2.6, text: 'Hola a todos y bienvenidos\na la cocina.', speaker: 'Ana' },
  { startSeconds: 3.4, endSeconds: 5.05, text: 'Hoy cocinamos arroz.', speaker: 'Ben & Co <chef>' },
  { startSeconds: 6, endSeconds: 7.5, text: 'Sin nadie que lo diga.' },
];

describe('toTtml', () => {
  it('writes an IMSC 1.1 Text Profile document that passes every check', () => {
    const xml = toTtml(CUES, { language: 'es_es' });
    const check = checkTtml(xml);
    expect(check.problems).toEqual([]);
    expect(check.paragraphs).toEqual([
      { begin: 0.42, end: 2.6, region: 'bottom', agent: 'speaker1', lines: ['Hola a todos y bienvenidos', 'a la cocina.'] },
      { begin: 3.4, end: 5.05, region: 'bottom', agent: 'speaker2', lines: ['Hoy cocinamos arroz.'] },
      { begin: 6, end: 7.5, region: 'bottom', agent: null, lines: ['Sin nadie que lo diga.'] },
    ]);
    // Who speaks is metadata, never shown text: an agent each, named as the transcript names them.
    expect([...check.agents]).toEqual([
      ['speaker1', 'Ana'],
      ['speaker2', 'Ben & Co <chef>'],
    ]);
    expect(IMSC_1_1_TEXT_PROFILE).toBe(IMSC_1_1_TEXT);
  });

  it('opens with the profile, the language and the media time base, and times cues as clock times', () => {
    const xml = toTtml(CUES, { language: 'es_es' });
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<tt xmlns="http:\/\/www\.w3\.org\/ns\/ttml" /);
    expect(xml).toContain(' xml:lang="es-ES" ttp:timeBase="media" ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text">');
    expect(xml).toContain('<p xml:id="cue1" begin="00:00:00.420" end="00:00:02.600" ttm:agent="speaker1"><span style="text">Hola a todos y bienvenidos<br/>a la cocina.</span></p>');
  });

  it("escapes the customer's words as text: markup characters are shown, never read as XML", () => {
    const text = '{\\an8}<font size="300">Hola</font> & <![CDATA[ x ]]> -->';
    const xml = toTtml([{ startSeconds: 1, endSeconds: 3, text }], { language: 'es_es' });
    expect(xml).toContain('{\\an8}&lt;font size=&quot;300&quot;&gt;Hola&lt;/font&gt; &amp; &lt;![CDATA[ x ]]&gt; --&gt;');
    const check = checkTtml(xml);
    expect(check.problems).toEqual([]);
    expect(check.paragraphs[0]!.lines).toEqual([text]);
  });

  it('drops what XML 1.0 cannot carry (control characters, a lone surrogate) and keeps the rest, emoji included', () => {
    const xml = toTtml([{ startSeconds: 1, endSeconds: 3, text: 'a\u0001b\u000bc \ud800 d 😀 é' }], { language: 'ca_es' });
    const check = checkTtml(xml);
    expect(check.problems).toEqual([]);
    expect(check.paragraphs[0]!.lines).toEqual(['abc d 😀 é']);
    expect(escapeXml('\ud83d\ude00')).toBe('😀');
  });

  it('is a valid empty document when there are no cues', () => {
    const check = checkTtml(toTtml([], { language: 'pt_pt' }));
    expect(check.problems).toEqual([]);
    expect(check.paragraphs).toEqual([]);
  });

  it('carries the same cues as the WebVTT, to the millisecond', () => {
    const fromVtt = parseVtt(toVtt(CUES));
    const { paragraphs } = checkTtml(toTtml(CUES, { language: 'es_es' }));
    expect(paragraphs.map((p) => [p.begin, p.end, p.lines.join('\n')])).toEqual(fromVtt.map((c) => [c.startSeconds, c.endSeconds, c.text]));
  });

  it('names the language in BCP 47', () => {
    expect([bcp47('es_es'), bcp47('pt_br'), bcp47('zh_hant_tw'), bcp47('ca')]).toEqual(['es-ES', 'pt-BR', 'zh-Hant-TW', 'ca']);
  });

  it('the checks catch what they are for: a document breaking the profile is refused', () => {
    const good = toTtml(CUES, { language: 'es_es' });
    const broken: [string, RegExp][] = [
      [good.replace(' ttp:contentProfiles="http://www.w3.org/ns/ttml/profile/imsc1.1/text"', ''), /contentProfiles does not name/],
      [good.replace('tts:extent="80% 15%"', 'tts:extent="95% 15%"'), /extends beyond the root container/],
      [good.replace('end="00:00:02.600"', 'end="00:00:04.000"'), /overlap in time/],
      // Frames need ttp:frameRate (IMSC 1.1 #frameRate).
      [good.replace('begin="00:00:00.420"', 'begin="00:00:00:10"'), /no valid begin and end/],
      [good.replace('ttm:agent="speaker1"', 'ttm:agent="speaker9"'), /"speaker9" names no/],
      [good.replace('<span style="text">Hoy', '<span style="text">Hoy & '), /^xmllint: .*xmlParseEntityRef/],
      [good.replace('<div>', '<div><region xml:id="x" tts:extent="10% 10%"/>'), /^imscJS fatal: Parent of <region> element is not <layout>/],
    ];
    for (const [xml, problem] of broken) expect(checkTtml(xml).problems).toContainEqual(expect.stringMatching(problem));
  });
});
