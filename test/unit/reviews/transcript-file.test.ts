import { detectFormat, formatTranscript, parseTranscript, TranscriptFileError } from '../../../src/cli/transcript-file';

const segments = [
  { start_seconds: 0.2, end_seconds: 1.5, text: 'Good morning.' },
  { start_seconds: 1.6, end_seconds: 3.6, text: 'Fish & chips <today>.' },
];

describe('transcript files', () => {
  it('round-trips the export through both formats', () => {
    for (const format of ['vtt', 'json'] as const) {
      const content = formatTranscript(format, 'p1', 4, segments);
      expect(parseTranscript(detectFormat(`t.${format}`, content), content)).toEqual(segments.map((s) => ({ startSeconds: s.start_seconds, endSeconds: s.end_seconds, text: s.text })));
    }
    expect(JSON.parse(formatTranscript('json', 'p1', 4, segments))).toMatchObject({ project_id: 'p1', duration_seconds: 4 });
  });

  it('detects the format from the name, else the content', () => {
    expect(detectFormat('a.VTT', '{}')).toBe('vtt');
    expect(detectFormat('a.json', 'WEBVTT')).toBe('json');
    expect(detectFormat('corrected', '\uFEFFWEBVTT\n\n')).toBe('vtt');
    expect(detectFormat('corrected', '[]')).toBe('json');
  });

  it('accepts a bare JSON cue list', () => {
    expect(parseTranscript('json', '[{"start_seconds":0,"end_seconds":1,"text":"Hi."}]')).toEqual([{ startSeconds: 0, endSeconds: 1, text: 'Hi.' }]);
  });

  it('names the cue when the file is malformed', () => {
    const bad = (format: 'vtt' | 'json', content: string) => () => parseTranscript(format, content);
    expect(bad('vtt', 'hello')).toThrow(new TranscriptFileError('not a WebVTT file: caption block 0: missing WEBVTT signature'));
    expect(bad('vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nA\n\n00:00:02.000 -> 00:00:03.000\nB\n')).toThrow(/^cue 2: expected a timing line/);
    expect(bad('json', '{"cues": [{"start_seconds": 0, "end_seconds": 1, "text": "A"}, {"start_seconds": "1", "end_seconds": 2, "text": "B"}]}')).toThrow('cue 2: start_seconds must be a number of seconds');
    expect(bad('json', '{"cues": [{"start_seconds": 0, "end_seconds": 1}]}')).toThrow('cue 1: text must be a string');
    expect(bad('json', '{"segments": []}')).toThrow(/expected \{"cues"/);
    expect(bad('json', '{')).toThrow(/^not valid JSON/);
  });
});
