import { parseVerboseTranscription } from '../../../../src/engines/external/transcription-response';

// verbose_json as the servers send it: Speaches/OpenAI (segments, words at the top) and
// whisper.cpp's server (words inside each segment).

describe('parseVerboseTranscription', () => {
  it('takes the segments, tidied and placed on the recording clock', () => {
    const body = {
      task: 'transcribe',
      language: 'english',
      duration: 6.5,
      text: ' Hello there. How are you?',
      segments: [
        { id: 0, start: 0.5, end: 1.75, text: ' Hello   there.', words: [{ word: ' Hello', start: 0.5, end: 1, probability: 0.9 }] },
        { id: 1, start: 2.0, end: 3.1, text: '\nHow are you?' },
        { id: 2, start: 4.0, end: 4.5, text: '   ' },
      ],
      words: [{ word: 'Hello', start: 0.5, end: 1 }],
    };
    expect(parseVerboseTranscription(body, 120)).toEqual([
      { startSeconds: 120.5, endSeconds: 121.75, text: 'Hello there.' },
      { startSeconds: 122, endSeconds: 123.1, text: 'How are you?' },
    ]);
  });

  it('groups the words into sentences when a server sends words alone', () => {
    const words = [
      { word: ' good', start: 0, end: 0.3 },
      { word: ' morning', start: 0.35, end: 0.8 },
      { word: ' see', start: 2, end: 2.2 },
      { word: ' you', start: 2.25, end: 2.5 },
    ];
    expect(parseVerboseTranscription({ text: 'good morning see you', segments: [], words })).toEqual([
      {
        startSeconds: 0,
        endSeconds: 0.8,
        text: 'Good morning.',
        words: [
          { text: 'Good', startSeconds: 0, endSeconds: 0.3 },
          { text: 'morning.', startSeconds: 0.35, endSeconds: 0.8 },
        ],
      },
      {
        startSeconds: 2,
        endSeconds: 2.5,
        text: 'See you.',
        words: [
          { text: 'See', startSeconds: 2, endSeconds: 2.2 },
          { text: 'you.', startSeconds: 2.25, endSeconds: 2.5 },
        ],
      },
    ]);
  });

  it('reads silence as no segments, and refuses what is not verbose_json', () => {
    expect(parseVerboseTranscription({ text: '', segments: [] })).toEqual([]);
    // response_format=json (text only): nothing to time the dub by.
    expect(parseVerboseTranscription({ text: 'Hello there.' })).toBeNull();
    expect(parseVerboseTranscription({ segments: 'nope' })).toBeNull();
    expect(parseVerboseTranscription('Hello')).toBeNull();
    expect(parseVerboseTranscription(null)).toBeNull();
  });

  it('skips segments without usable times', () => {
    const body = {
      segments: [
        { start: -1, end: 1, text: 'bad' },
        { start: 1, end: null, text: 'bad' },
        { start: 2, end: 1.5, text: 'Backwards.' },
      ],
    };
    expect(parseVerboseTranscription(body)).toEqual([{ startSeconds: 2, endSeconds: 2, text: 'Backwards.' }]);
  });
});
