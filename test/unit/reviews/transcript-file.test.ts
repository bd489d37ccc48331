import { formatTranscript } from '../../../src/cli/transcript-file';
import { toVtt } from '../../../src/publish/captions';
import { parseTranscript, readTranscript, TranscriptFileError } from '../../../src/shared/transcript-file';
import type { ReviewCue } from '../../../src/shared/transcript-cues';
import { detectFormat } from '../../../src/shared/transcript-format';

const segments = [
  { start_seconds: 0.2, end_seconds: 1.5, text: 'Good morning.' },
  { start_seconds: 1.6, end_seconds: 3.6, text: 'Fish & chips <today>.' },
];
const asCues = (list: typeof segments) => list.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text }));

describe('transcript files', () => {
  it('round-trips the export through both formats', () => {
    for (const format of ['vtt', 'json'] as const) {
      const content = formatTranscript(format, 'p1', 4, segments);
      expect(parseTranscript(detectFormat(`t.${format}`, content), content)).toEqual(asCues(segments));
    }
    expect(JSON.parse(formatTranscript('json', 'p1', 4, segments))).toMatchObject({ project_id: 'p1', duration_seconds: 4 });
  });

  it('round-trips an export with speakers through both formats', () => {
    const voiced = [
      { ...segments[0]!, speaker: 'Ana' },
      { ...segments[1]!, speaker: null },
    ];
    for (const format of ['vtt', 'json'] as const) {
      expect(parseTranscript(format, formatTranscript(format, 'p1', 4, voiced))).toEqual([{ ...asCues(segments)[0], speaker: 'Ana' }, asCues(segments)[1]]);
    }
  });

  it('reads SubRip, with CRLF line ends and a byte-order mark', () => {
    const srt = '\uFEFF1\r\n00:00:00,200 --> 00:00:01,500\r\nGood morning.\r\n\r\n2\r\n00:00:01,600 --> 00:00:03,600\r\nFish & chips <today>.\r\n';
    expect(parseTranscript('srt', srt)).toEqual(asCues(segments));
  });

  it('detects the format from the name, else the content', () => {
    expect(detectFormat('a.VTT', '{}')).toBe('vtt');
    expect(detectFormat('a.json', 'WEBVTT')).toBe('json');
    expect(detectFormat('a.Srt', 'WEBVTT')).toBe('srt');
    expect(detectFormat('corrected', '\uFEFFWEBVTT\n\n')).toBe('vtt');
    expect(detectFormat('corrected', '[]')).toBe('json');
    expect(detectFormat('corrected', ' {"segments": []}')).toBe('json');
    expect(detectFormat('corrected', '1\n00:00:00,000 --> 00:00:01,000\nHi.\n')).toBe('srt');
  });

  it('accepts a bare JSON cue list, or the list under segments or cues', () => {
    const one = [{ startSeconds: 0, endSeconds: 1, text: 'Hi.' }];
    expect(parseTranscript('json', '[{"start_seconds":0,"end_seconds":1,"text":"Hi."}]')).toEqual(one);
    expect(parseTranscript('json', '{"segments":[{"start_seconds":0,"end_seconds":1,"text":"Hi."}]}')).toEqual(one);
    expect(parseTranscript('json', '{"cues":[{"start_seconds":0,"end_seconds":1,"text":"Hi."}]}')).toEqual(one);
  });

  it('names the cue when the file is malformed', () => {
    const bad = (format: 'vtt' | 'srt' | 'json', content: string) => () => parseTranscript(format, content);
    expect(bad('vtt', 'hello')).toThrow(new TranscriptFileError('not a WebVTT file: caption block 0: missing WEBVTT signature'));
    expect(bad('vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nA\n\n00:00:02.000 -> 00:00:03.000\nB\n')).toThrow(/^cue 2: expected a timing line/);
    expect(bad('srt', '1\n00:00:00,000 --> 00:00:01,000\nA\n\n2\n00:00:02.000 --> 00:00:03,000\nB\n')).toThrow(/^cue 2: malformed timestamp/);
    expect(bad('srt', 'one\n00:00:00,000 --> 00:00:01,000\nA\n')).toThrow(/^cue 1: expected a cue number/);
    expect(bad('json', '{"cues": [{"start_seconds": 0, "end_seconds": 1, "text": "A"}, {"start_seconds": "1", "end_seconds": 2, "text": "B"}]}')).toThrow(
      'cue 2: start_seconds must be a number of seconds',
    );
    expect(bad('json', '{"cues": [{"start_seconds": 0, "end_seconds": 1}]}')).toThrow('cue 1: text must be a string');
    expect(bad('json', '{"lines": []}')).toThrow(/expected \[\{"start_seconds"/);
    expect(bad('json', '{')).toThrow(/^not valid JSON/);
  });

  it('readTranscript applies the cue rules, naming a reversed cue with its timing', () => {
    const srt = ['1', '00:00:01,000 --> 00:00:02,000', 'A', '', '2', '00:00:03,000 --> 00:00:04,000', 'B', '', '3', '00:00:07,000 --> 00:00:06,500', 'C', ''].join('\n');
    expect(() => readTranscript('srt', srt, null)).toThrow(new TranscriptFileError('cue 3 (00:00:07.000 → 00:00:06.500) ends before it starts'));
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n\n00:00:03.000 --> 00:00:09.000\nB\n';
    expect(readTranscript('vtt', vtt, null)).toHaveLength(2);
    expect(() => readTranscript('vtt', vtt, 5)).toThrow('cue 2 (00:00:03.000 → 00:00:09.000) ends after the source, which lasts 00:00:05.000');
    expect(() => readTranscript('json', '[]', null)).toThrow('the transcript has no cues');
  });
});

// Markup is never words, and a cue's speaker is the label the file gives it (docs/editing.md#speakers-in-a-script).
describe('speakers and markup in transcript files', () => {
  const vtt = (...cues: string[]) => `WEBVTT\n\n${cues.map((text, i) => `00:00:0${i}.000 --> 00:00:0${i + 1}.000\n${text}\n`).join('\n')}`;
  const srt = (...cues: string[]) => cues.map((text, i) => `${i + 1}\n00:00:0${i},000 --> 00:00:0${i + 1},000\n${text}\n`).join('\n');

  it("reads the issue's WebVTT: the voice span is the speaker, the words are what is translated and spoken", () => {
    expect(parseTranscript('vtt', vtt('<v Ana>Hello and welcome to the show.'))).toEqual([{ startSeconds: 0, endSeconds: 1, text: 'Hello and welcome to the show.', speaker: 'Ana' }]);
  });

  it('reads WebVTT markup as markup: classes, styles, ruby, languages, timestamps and references are not words', () => {
    const cues = parseTranscript('vtt', vtt('<v.loud  Ana >Fish &amp; <i>chips</i>', '<lang en>Sur les <c.x>playground</c></lang> <00:00:01.500>&lt;3', 'no voice'));
    expect(cues).toEqual([
      { startSeconds: 0, endSeconds: 1, text: 'Fish & chips', speaker: 'Ana' },
      { startSeconds: 1, endSeconds: 2, text: 'Sur les playground <3' },
      { startSeconds: 2, endSeconds: 3, text: 'no voice' },
    ]);
  });

  it('refuses a WebVTT cue in two voices, naming the cue and the voices; one voice named twice is one voice', () => {
    expect(() => parseTranscript('vtt', vtt('<v Ana>Hi.', '<v Ana>Hi!</v> <v Ben>Hello!'))).toThrow(
      new TranscriptFileError('cue 2 (00:00:01.000 → 00:00:02.000) has two voices (Ana, Ben); give each voice its own cue'),
    );
    expect(() => parseTranscript('vtt', vtt('<v A>a <v B>b <v C>c'))).toThrow('cue 1 (00:00:00.000 → 00:00:01.000) has 3 voices (A, B, C); give each voice its own cue');
    expect(parseTranscript('vtt', vtt('<v Ana>Hi!</v> <v  Ana>Again.'))).toEqual([{ startSeconds: 0, endSeconds: 1, text: 'Hi! Again.', speaker: 'Ana' }]);
  });

  it('refuses a cue whose markup leaves no words, and a speaker named in more than 60 characters', () => {
    expect(() => readTranscript('vtt', vtt('<v Ana></v><i> </i>'), null)).toThrow('cue 1 (00:00:00.000 → 00:00:01.000) has no text');
    expect(() => readTranscript('vtt', vtt(`<v ${'x'.repeat(61)}>Hi.`), null)).toThrow('cue 1 (00:00:00.000 → 00:00:01.000) names a speaker that has 61 characters; at most 60 are accepted');
    expect(readTranscript('vtt', vtt(`<v ${'x'.repeat(60)}>Hi.`), null)[0]!.speaker).toHaveLength(60);
  });

  it("reads a JSON cue's optional speaker, normalized; null is none", () => {
    const json = JSON.stringify([
      { start_seconds: 0, end_seconds: 1, text: 'Hi.', speaker: '  Dr.  Ben ' },
      { start_seconds: 1, end_seconds: 2, text: 'Hello.', speaker: null },
      { start_seconds: 2, end_seconds: 3, text: 'Bye.' },
    ]);
    expect(parseTranscript('json', json)).toEqual([
      { startSeconds: 0, endSeconds: 1, text: 'Hi.', speaker: 'Dr. Ben' },
      { startSeconds: 1, endSeconds: 2, text: 'Hello.' },
      { startSeconds: 2, endSeconds: 3, text: 'Bye.' },
    ]);
    // JSON has no markup: its text is the words as written.
    expect(parseTranscript('json', '[{"start_seconds":0,"end_seconds":1,"text":"<v Ana>Hi"}]')[0]!.text).toBe('<v Ana>Hi');
  });

  it.each([
    [42, "cue 2: speaker must be a string: the speaker's name"],
    [['Ana'], "cue 2: speaker must be a string: the speaker's name"],
    ['  ', 'cue 2: speaker is empty'],
    ['y'.repeat(61), 'cue 2: speaker has 61 characters; at most 60 are accepted'],
  ])('refuses a JSON speaker %j, naming the cue', (speaker, message) => {
    const json = JSON.stringify([
      { start_seconds: 0, end_seconds: 1, text: 'Hi.' },
      { start_seconds: 1, end_seconds: 2, text: 'Hello.', speaker },
    ]);
    expect(() => parseTranscript('json', json)).toThrow(new TranscriptFileError(message));
  });

  it("takes SubRip's NAME: prefixes as speakers only when asked", () => {
    const file = srt('ANA: Hello and welcome.', "Dr. Ben: Hi.\nO'Brien-Smith 2: Hey.", 'Note: bring water', 'ANA: Hi.\nand more', '- ANA: dash\nhttp://x.y 10:30');
    expect(parseTranscript('srt', file).map((c) => [c.text, c.speaker])).toEqual([
      ['ANA: Hello and welcome.', undefined],
      ["Dr. Ben: Hi.\nO'Brien-Smith 2: Hey.", undefined],
      ['Note: bring water', undefined],
      ['ANA: Hi.\nand more', undefined],
      ['- ANA: dash\nhttp://x.y 10:30', undefined],
    ]);
    const asked = () => parseTranscript('srt', file, { speakerPrefixes: true });
    expect(asked).toThrow(new TranscriptFileError("cue 2 (00:00:01.000 → 00:00:02.000) has two voices (Dr. Ben, O'Brien-Smith 2); give each voice its own cue"));
    const cues = parseTranscript('srt', srt('ANA: Hello and welcome.', 'Note: bring water', 'ANA: Hi.\nand more', 'Ben:  two\nBen: lines', '- ANA: dash\nhttp://x.y 10:30'), { speakerPrefixes: true });
    expect(cues.map((c) => [c.text, c.speaker])).toEqual([
      ['Hello and welcome.', 'ANA'],
      ['bring water', 'Note'],
      ['Hi.\nand more', 'ANA'],
      ['two\nlines', 'Ben'],
      ['- ANA: dash\nhttp://x.y 10:30', undefined],
    ]);
  });

  it('holds a SubRip prefix to 40 characters, and strips its styling tags before looking for one', () => {
    const long = `${'N'.repeat(41)}: Hi.`;
    expect(parseTranscript('srt', srt(long), { speakerPrefixes: true })[0]).toEqual({ startSeconds: 0, endSeconds: 1, text: long });
    expect(parseTranscript('srt', srt('<i>ANA: Hi there.</i>'), { speakerPrefixes: true })[0]).toEqual({ startSeconds: 0, endSeconds: 1, text: 'Hi there.', speaker: 'ANA' });
  });

  it('round-trips: cues with speakers, written by toVtt, read back with the same words and speakers', () => {
    const cues: ReviewCue[] = [
      { startSeconds: 0.5, endSeconds: 2, text: 'Hello & welcome <everyone>.', speaker: 'Ana' },
      { startSeconds: 2, endSeconds: 4.25, text: 'Two lines,\none voice.', speaker: 'Tom & Jerry' },
      { startSeconds: 4.25, endSeconds: 5, text: 'Nobody named.' },
      { startSeconds: 5, endSeconds: 6, text: '&amp; is not a reference here', speaker: '<Ben>' },
    ];
    expect(parseTranscript('vtt', toVtt(cues))).toEqual(cues);
    expect(readTranscript('vtt', toVtt(cues), 6)).toEqual(cues);
  });
});
