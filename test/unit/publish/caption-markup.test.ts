import { toBurnedCaptions, assTimestamp } from '../../../src/publish/burned-captions';
import { escapeAssLine, escapeSrtLine, stripSrtTags, unescapeSrtLine, WORD_JOINER as WJ } from '../../../src/publish/caption-markup';
import { parseSrt, toSrt } from '../../../src/publish/captions';

// Caption text is shown as written (docs/video.md#captions-show-the-text-as-written): markup in
// a line is escaped in the SRT and in the captions burned into the video.

const MARKUP = '{\\an8}<font size="300">Hola</font> a --> b \\N';

describe('escapeSrtLine', () => {
  it('puts a word joiner after every <, { and \\ and inside -->, so no reader finds a tag', () => {
    expect(escapeSrtLine(MARKUP)).toBe(`{${WJ}\\${WJ}an8}<${WJ}font size="300">Hola<${WJ}/font> a --${WJ}> b \\${WJ}N`);
  });
  it('leaves text without markup characters as it is', () => {
    expect(escapeSrtLine('¿Qué tal? 100% > 5, "sí" & no')).toBe('¿Qué tal? 100% > 5, "sí" & no');
  });
  it('is undone by unescapeSrtLine', () => {
    for (const text of [MARKUP, '<<b>> {{x}} \\\\ ---> <', '']) expect(unescapeSrtLine(escapeSrtLine(text))).toBe(text);
  });
});

describe('stripSrtTags', () => {
  it("drops the tags and override blocks SubRip players read in a customer's file", () => {
    expect(stripSrtTags(MARKUP)).toBe('Hola a --> b \\N');
    expect(stripSrtTags('<i>a</i><b>b</b><u>c</u><s>d</s><I>e</I><font face="Arial" size=3>f</font><FONT>g</FONT>{\\i1}h{\\i0}')).toBe('abcdefgh');
  });
  it('keeps what is no tag: unknown names, a lone <, braces without a backslash, and what escapeSrtLine wrote', () => {
    for (const text of ['a < b > c', '<today> <br> <fontx>', '{not an override}', escapeSrtLine(MARKUP)]) expect(stripSrtTags(text)).toBe(text);
  });
});

describe('toSrt', () => {
  it('escapes markup in every line of a cue, and parseSrt reads the words back', () => {
    const cues = [{ startSeconds: 1, endSeconds: 2, text: `${MARKUP}\n<i>dos</i>` }];
    const srt = toSrt(cues);
    expect(srt).toBe(`1\n00:00:01,000 --> 00:00:02,000\n${escapeSrtLine(MARKUP)}\n<${WJ}i>dos<${WJ}/i>\n`);
    // No line of text reads as a timing line, no tag opens.
    expect(srt.split('\n').filter((l) => l.includes('-->'))).toHaveLength(1);
    expect(srt).not.toMatch(/<\/?[a-z]|\{\\/i);
    expect(parseSrt(srt)).toEqual(cues);
  });
});

describe('escapeAssLine', () => {
  it("escapes braces with libass's \\{ \\}, and breaks \\N, \\n, \\h with a joiner", () => {
    expect(escapeAssLine(MARKUP)).toBe(`\\{\\an8\\}<font size="300">Hola</font> a --> b \\${WJ}N`);
    expect(escapeAssLine('a\\nb\\hc\\xd')).toBe(`a\\${WJ}nb\\${WJ}hc\\xd`);
  });
  it('keeps a backslash before a brace a backslash: \\\\{ is a backslash and an escaped brace', () => {
    expect(escapeAssLine('\\{x\\}')).toBe('\\\\{x\\\\}');
  });
});

describe('toBurnedCaptions', () => {
  it('writes one Dialogue event a cue in the Default style, lines joined by \\N, text escaped', () => {
    const ass = toBurnedCaptions([{ startSeconds: 1.234, endSeconds: 3725.5, text: `${MARKUP}\n\nsegunda, línea` }]);
    expect(ass).toContain('\nStyle: Default,');
    expect(ass).toContain('\nPlayResY: 288\n');
    expect(ass.endsWith(`\nDialogue: 0,0:00:01.23,1:02:05.50,Default,,0,0,0,,${escapeAssLine(MARKUP)}\\Nsegunda, línea\n`)).toBe(true);
  });
  it('writes centiseconds, rounded', () => {
    expect([assTimestamp(0), assTimestamp(59.996), assTimestamp(36_000.004)]).toEqual(['0:00:00.00', '0:01:00.00', '10:00:00.00']);
    expect(() => assTimestamp(-1)).toThrow(RangeError);
  });
});
