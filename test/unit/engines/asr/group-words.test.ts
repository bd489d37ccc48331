import { DEFAULT_SENTENCE_PAUSE_SECONDS, groupWords, splitSentences, toSentence } from '../../../../src/engines/asr/group-words';
import type { TimedWord } from '../../../../src/engines/asr/pocketsphinx-output';
import { captionLines, MAX_CUE_CHARS, MAX_CUE_LINES, MAX_CUE_SECONDS, MAX_LINE_CHARS } from '../../../../src/shared/caption-rules';

/** Words of fixed length with the given gaps before each (first gap = start time); `!` after a word: the decoder's `</s>`. */
function words(spec: [string, number][], length = 0.3): TimedWord[] {
  let t = 0;
  return spec.map(([raw, gap]) => {
    const start = t + gap;
    t = start + length;
    const word = raw.replace(/!$/, '');
    return { word, startSeconds: Number(start.toFixed(3)), endSeconds: Number(t.toFixed(3)), ...(raw.endsWith('!') ? { endsUtterance: true } : {}) };
  });
}

/** Every cue rule at once: ≤ 2 lines of ≤ 42 characters, ≤ 7 s, no word lost or cut. */
function expectCueRules(segments: ReturnType<typeof groupWords>, heard: readonly TimedWord[]): void {
  for (const s of segments) {
    expect(s.text.length).toBeLessThanOrEqual(MAX_CUE_CHARS);
    const lines = captionLines(s.text);
    expect(lines).not.toBeNull();
    expect(lines!.length).toBeLessThanOrEqual(MAX_CUE_LINES);
    for (const line of lines!) expect(line.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
    expect(s.endSeconds - s.startSeconds).toBeLessThanOrEqual(MAX_CUE_SECONDS);
  }
  // Never mid-word: the cues' words, in order, are exactly the words heard.
  const shown = segments.flatMap((s) => s.text.replace(/\.$/, '').split(' ')).map((w) => w.toLowerCase());
  expect(shown).toEqual(heard.map((w) => w.word.toLowerCase()));
  // Each cue starts and ends on a heard word's times, in order.
  for (const [i, s] of segments.entries()) {
    expect(heard.some((w) => w.startSeconds === s.startSeconds)).toBe(true);
    expect(heard.some((w) => w.endSeconds === s.endSeconds)).toBe(true);
    if (i > 0) expect(s.startSeconds).toBeGreaterThanOrEqual(segments[i - 1]!.endSeconds);
  }
}

describe('groupWords', () => {
  it('ends a sentence at a reported silence of the sentence pause or more, not at a shorter one', () => {
    const gap = DEFAULT_SENTENCE_PAUSE_SECONDS;
    const segments = groupWords(
      words([
        ['hello', 0.5],
        ['world', gap - 0.02],
        ['the', gap],
        ['house', 0.01],
        ['is', 0.08],
        ['red', 1.5],
      ]),
    );
    expect(segments.map((s) => s.text)).toEqual(['Hello world.', 'The house is.', 'Red.']);
    const heard = words([
      ['hello', 0.5],
      ['world', gap - 0.02],
      ['the', gap],
      ['house', 0.01],
      ['is', 0.08],
      ['red', 1.5],
    ]);
    expect(segments[0]).toMatchObject({ startSeconds: 0.5, endSeconds: heard[1]!.endSeconds });
    expect(segments[2]).toMatchObject({ startSeconds: heard[5]!.startSeconds, endSeconds: heard[5]!.endSeconds });
  });

  it('ends a sentence where the decoder closed its utterance (</s>), however short the gap', () => {
    const segments = groupWords(
      words([
        ['good', 0],
        ['morning!', 0.01],
        ['welcome', 0.01],
        ['back', 0.01],
      ]),
    );
    expect(segments.map((s) => s.text)).toEqual(['Good morning.', 'Welcome back.']);
  });

  it('a run of short sentences: one cue each, in order, none overlapping', () => {
    const heard = words([
      ['yes', 0.2],
      ['no', 0.3],
      ['maybe', 0.25],
      ['thank', 0.4],
      ['you', 0.01],
      ['bye', 0.2],
    ]);
    const segments = groupWords(heard);
    expect(segments.map((s) => s.text)).toEqual(['Yes.', 'No.', 'Maybe.', 'Thank you.', 'Bye.']);
    expectCueRules(segments, heard);
  });

  it('one long sentence: cut into cues that each fit, at its pauses (clauses) first', () => {
    // 30 words, no sentence pause; a clause pause (0.08 s) after "river".
    const spoken = 'we walked along the quiet river and then we turned back towards the old town where the bakery on the corner was still open and the lights were on'.split(' ');
    const heard = words(
      spoken.map((w, i): [string, number] => [w, i > 0 && spoken[i - 1] === 'river' ? 0.08 : 0.01]),
      0.25,
    );
    const segments = groupWords(heard);
    expect(segments.length).toBeGreaterThan(1);
    expectCueRules(segments, heard);
    expect(segments[0]!.text).toBe('We walked along the quiet river');
    // Only the sentence's last cue ends with its period; only the first is capitalized.
    expect(segments.slice(0, -1).every((s) => !s.text.endsWith('.'))).toBe(true);
    expect(segments.at(-1)!.text.endsWith('.')).toBe(true);
  });

  it('cuts a sentence that runs past 7 s even when its text would fit', () => {
    const heard = words(
      [
        ['so', 0],
        ['um', 0.01],
        ['well', 0.01],
        ['okay', 0.01],
      ],
      2.2,
    ); // 8.83 s, 17 characters
    const segments = groupWords(heard);
    expect(segments.length).toBe(2);
    expectCueRules(segments, heard);
  });

  it('keeps every rule over many random sentences', () => {
    const random = mulberry32(7);
    const vocabulary = ['a', 'the', 'house', 'tomorrow', 'extraordinary', 'is', 'we', 'and', 'responsibilities', 'go'];
    const spec: [string, number][] = Array.from({ length: 400 }, () => [vocabulary[Math.floor(random() * vocabulary.length)]!, random() < 0.1 ? 0.3 : random() < 0.2 ? 0.07 : 0.01]);
    const heard = words(spec, 0.2);
    expectCueRules(groupWords(heard), heard);
  });

  it("keeps each segment's words with the decoder's times, written as in its text", () => {
    const heard = words([
      ['i', 0.5],
      ['think', 0.01],
      ['so', 0.01],
      ['yes', 1],
    ]);
    const segments = groupWords(heard);
    expect(segments.map((s) => s.text)).toEqual(['I think so.', 'Yes.']);
    expect(segments[0]!.words).toEqual([
      { text: 'I', startSeconds: heard[0]!.startSeconds, endSeconds: heard[0]!.endSeconds },
      { text: 'think', startSeconds: heard[1]!.startSeconds, endSeconds: heard[1]!.endSeconds },
      { text: 'so.', startSeconds: heard[2]!.startSeconds, endSeconds: heard[2]!.endSeconds },
    ]);
    for (const s of segments) expect(s.words!.map((w) => w.text).join(' ')).toBe(s.text);
  });

  it('honours a custom sentence pause', () => {
    const input = words([
      ['a', 0],
      ['b', 0.2],
      ['c', 0.2],
    ]);
    expect(groupWords(input, { sentencePauseSeconds: 0.1 })).toHaveLength(3);
    expect(groupWords(input, { sentencePauseSeconds: 1 }).map((s) => s.text)).toEqual(['A b c.']);
  });

  it('returns no segments for no words', () => {
    expect(groupWords([])).toEqual([]);
    expect(splitSentences([])).toEqual([]);
  });
});

describe('toSentence', () => {
  it('capitalizes and ends with a period', () => {
    expect(toSentence(['the', 'house', 'is', 'red'])).toBe('The house is red.');
  });

  it('capitalizes the English pronoun I and its contractions', () => {
    expect(toSentence(['i', 'think', "i'm", 'in', 'india'])).toBe("I think I'm in india.");
  });

  it('does not double terminal punctuation and returns empty for nothing', () => {
    expect(toSentence(['really?'])).toBe('Really?');
    expect(toSentence([])).toBe('');
  });
});

/** Small seeded PRNG, so the property test is reproducible. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
