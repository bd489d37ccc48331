import { captionChars, captionLines, cutIntoCues, cutStrength, type CueShape } from '../../../src/shared/caption-rules';

// How a caption's words are broken into lines and cut into cues (docs/captions.md#how-cues-are-cut).
// The characters of each word are counted once and summed; these pin down that the sums are what
// counting the joined text gives.

const shape = (maxLineChars: number, maxLines: 1 | 2 = 2): CueShape => ({ maxLineChars, maxLines, maxDurationSeconds: 7 });

it('breaks two lines at the most even place, counting what a reader sees', () => {
  // "café niño" is 9 characters as seen, 9 code units as NFC, 11 with the accents combining.
  const decomposed = 'cafe\u0301 nin\u0303o come arroz';
  expect(captionChars(decomposed)).toBe(20);
  expect(captionLines(decomposed, shape(20))).toEqual([decomposed]);
  expect(captionLines(decomposed, shape(19))).toEqual(['cafe\u0301 nin\u0303o', 'come arroz']);
  expect(captionLines(decomposed, shape(19, 1))).toBeNull();
  expect(captionLines('extraordinariamente largo', shape(10))).toBeNull();
});

it('counts a word that starts with a combining mark together with the space before it, as a reader sees them', () => {
  // The mark joins the space: "ab", " ́", "c" are 4 characters, not the 5 the words' own counts sum to.
  const text = 'ab \u0301c';
  expect(captionChars(text)).toBe(4);
  expect(captionLines(text, shape(4, 1))).toEqual([text]);
});

it('cuts a long line into cues at a sentence end before anything else, each fitting its lines', () => {
  const words = 'Hoy cocinamos arroz con verduras frescas del mercado. Después lavamos los platos y descansamos un rato largo.'.split(' ');
  let at = 0;
  const units = words.map((text) => ({ text, startSeconds: at, endSeconds: (at += 0.3), cutAfter: cutStrength(text) }));
  const cues = cutIntoCues(units, shape(24)).map((run) => run.map((u) => u.text).join(' '));
  // No cue holds the end of one sentence and the start of the next.
  expect(cues.some((cue) => cue.endsWith('mercado.'))).toBe(true);
  expect(cues.length).toBeGreaterThan(2);
  expect(cues.join(' ')).toBe(words.join(' '));
  for (const cue of cues) expect(captionLines(cue, shape(24))).not.toBeNull();
});
