import { CaptionParseError, parseSrt, parseVtt, parseVttVoices, toSrt, toVtt, type Cue } from '../../../src/publish/captions';

const CUES: Cue[] = [
  { startSeconds: 1, endSeconds: 2.5, text: 'Hola mundo.' },
  { startSeconds: 3.25, endSeconds: 65.004, text: 'La casa es roja.\nY el perro, negro.' },
];

describe('toSrt', () => {
  it('writes numbered cues with comma timestamps separated by blank lines', () => {
    expect(toSrt(CUES)).toBe('1\n00:00:01,000 --> 00:00:02,500\nHola mundo.\n\n2\n00:00:03,250 --> 00:01:05,004\nLa casa es roja.\nY el perro, negro.\n');
  });

  it('writes an empty file for no cues', () => {
    expect(toSrt([])).toBe('');
    expect(parseSrt(toSrt([]))).toEqual([]);
  });

  it('removes blank lines inside a cue, which would end it early', () => {
    const srt = toSrt([{ startSeconds: 0, endSeconds: 1, text: 'one\n\n\ntwo\r\n' }]);
    expect(parseSrt(srt)).toEqual([{ startSeconds: 0, endSeconds: 1, text: 'one\ntwo' }]);
  });

  it('refuses a cue that ends before it starts', () => {
    expect(() => toSrt([{ startSeconds: 2, endSeconds: 1, text: 'x' }])).toThrow(RangeError);
  });
});

describe('toVtt', () => {
  it('starts with the WEBVTT line and a blank line, then dot timestamps', () => {
    const vtt = toVtt(CUES);
    expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
    expect(vtt).toContain('00:00:01.000 --> 00:00:02.500\nHola mundo.\n');
    expect(vtt).not.toMatch(/\d,\d{3}/);
  });

  it('writes a valid empty file for no cues', () => {
    expect(toVtt([])).toBe('WEBVTT\n\n');
    expect(parseVtt(toVtt([]))).toEqual([]);
  });

  it('escapes markup characters and arrows in cue text', () => {
    const vtt = toVtt([{ startSeconds: 0, endSeconds: 1, text: 'a < b & c > d --> e' }]);
    expect(vtt).toContain('a &lt; b &amp; c &gt; d --&gt; e');
    expect(parseVtt(vtt)[0]!.text).toBe('a < b & c > d --> e');
  });

  it("writes a speaker as a voice span opening the cue's first line, left open over every line", () => {
    const vtt = toVtt([
      { startSeconds: 0, endSeconds: 1, text: 'Hola.', speaker: 'Ana' },
      { startSeconds: 1, endSeconds: 3, text: 'línea uno\nlínea dos', speaker: '  Dr.   Ben ' },
      { startSeconds: 3, endSeconds: 4, text: 'Nadie.' },
      { startSeconds: 4, endSeconds: 5, text: 'Nadie tampoco.', speaker: ' ' },
    ]);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v Ana>Hola.\n\n00:00:01.000 --> 00:00:03.000\n<v Dr. Ben>línea uno\nlínea dos\n\n' +
        '00:00:03.000 --> 00:00:04.000\nNadie.\n\n00:00:04.000 --> 00:00:05.000\nNadie tampoco.\n',
    );
  });

  it("escapes the speaker's label as the annotation must be: no raw &, < or >", () => {
    const vtt = toVtt([{ startSeconds: 0, endSeconds: 1, text: 'Hi.', speaker: 'Tom & <Jerry> -->' }]);
    expect(vtt).toContain('\n<v Tom &amp; &lt;Jerry&gt; --&gt;>Hi.\n');
    expect(parseVtt(vtt)).toEqual([{ startSeconds: 0, endSeconds: 1, text: 'Hi.', speaker: 'Tom & <Jerry> -->' }]);
  });
});

describe('round trips', () => {
  const tricky: Cue[] = [
    { startSeconds: 0, endSeconds: 0.5, text: '¿Qué tal? «Olá» — 日本語 "quotes" 100%' },
    { startSeconds: 0.5, endSeconds: 3600.123, text: '2\n00:00:01,000 --> 00:00:02,000' },
  ];

  it('parseSrt reads back what toSrt wrote', () => {
    expect(parseSrt(toSrt(CUES))).toEqual(CUES);
    expect(parseSrt(toSrt(tricky))).toEqual(tricky);
  });

  it('parseVtt reads back what toVtt wrote', () => {
    expect(parseVtt(toVtt(CUES))).toEqual(CUES);
    expect(parseVtt(toVtt(tricky))).toEqual(tricky);
  });

  it('parseVtt reads back the speakers toVtt wrote; toSrt writes none and parseSrt reads the words', () => {
    const voiced: Cue[] = [
      { startSeconds: 0, endSeconds: 1, text: 'Hola & <adiós>', speaker: 'Ana' },
      { startSeconds: 1, endSeconds: 2, text: 'uno\ndos', speaker: "O'Brien-Smith Jr." },
      { startSeconds: 2, endSeconds: 3, text: 'sin voz' },
    ];
    expect(parseVtt(toVtt(voiced))).toEqual(voiced);
    expect(toSrt(voiced)).not.toContain('Ana');
    expect(parseSrt(toSrt(voiced))).toEqual(voiced.map(({ speaker: _speaker, ...cue }) => cue));
  });
});

describe('parsers', () => {
  it('parseSrt accepts CRLF line ends and a byte-order mark', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,000\r\nHello\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nWorld\r\n';
    expect(parseSrt(srt)).toEqual([
      { startSeconds: 1, endSeconds: 2, text: 'Hello' },
      { startSeconds: 3, endSeconds: 4, text: 'World' },
    ]);
  });

  it('parseVtt skips the header, NOTE and STYLE blocks, cue ids and cue settings', () => {
    const vtt = [
      'WEBVTT - dub',
      'Kind: captions',
      '',
      'NOTE made by hand',
      '',
      'STYLE',
      '::cue { color: yellow }',
      '',
      'intro',
      '00:01.000 --> 00:02.000 align:start position:10%',
      'Hello',
      '',
      '00:00:03.000 --> 00:00:04.500',
      'World',
      '',
    ].join('\n');
    expect(parseVtt(vtt)).toEqual([
      { startSeconds: 1, endSeconds: 2, text: 'Hello' },
      { startSeconds: 3, endSeconds: 4.5, text: 'World' },
    ]);
  });

  it.each([
    ['a missing cue number', '00:00:01,000 --> 00:00:02,000\nHello\n'],
    ['a VTT-style timestamp', '1\n00:00:01.000 --> 00:00:02.000\nHello\n'],
    ['no arrow', '1\n00:00:01,000 00:00:02,000\nHello\n'],
    ['an end before the start', '1\n00:00:02,000 --> 00:00:01,000\nHello\n'],
  ])('parseSrt refuses %s', (_name, srt) => {
    expect(() => parseSrt(srt)).toThrow(CaptionParseError);
  });

  it("parseVtt gives a cue's words and its voice, never its markup (the issue's example)", () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ana>Hello and welcome to the show.\n\n00:00:02.000 --> 00:00:04.000\n<c.loud><i>Fish</i> &amp; <00:00:03.000>chips</c>\n';
    expect(parseVtt(vtt)).toEqual([
      { startSeconds: 0, endSeconds: 2, text: 'Hello and welcome to the show.', speaker: 'Ana' },
      { startSeconds: 2, endSeconds: 4, text: 'Fish & chips' },
    ]);
  });

  it('parseVttVoices names every voice of a cue; parseVtt keeps the first', () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ana>Hi!</v>\n<v Ben>Hello!\n';
    expect(parseVttVoices(vtt)).toEqual([{ startSeconds: 0, endSeconds: 2, text: 'Hi!\nHello!', voices: ['Ana', 'Ben'] }]);
    expect(parseVtt(vtt)[0]!.speaker).toBe('Ana');
  });

  it("parseSrt drops SubRip's styling tags and ASS override blocks, keeping the words", () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Hello</i> <B>there</B>, <font color="#ff0">friend</font>\n<u></u>\n<s>gone</s> a < b > c <today>\n';
    expect(parseSrt(srt)).toEqual([{ startSeconds: 1, endSeconds: 2, text: 'Hello there, friend\ngone a < b > c <today>' }]);
  });

  it.each([
    ['no signature', '00:00:01.000 --> 00:00:02.000\nHello\n'],
    ['a signature glued to text', 'WEBVTTX\n\n00:00:01.000 --> 00:00:02.000\nHello\n'],
    ['an SRT-style timestamp', 'WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nHello\n'],
  ])('parseVtt refuses %s', (_name, vtt) => {
    expect(() => parseVtt(vtt)).toThrow(CaptionParseError);
  });
});
