import { formatTranscript } from '../../../src/cli/transcript-file';
import { parseTranscript, readTranscript, TranscriptFileError } from '../../../src/shared/transcript-file';
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
