import { parsePocketsphinxWords } from '../../../../src/engines/asr/pocketsphinx-output';

// The shape pocketsphinx_continuous -time yes prints: a hypothesis line, then word lines.
const OUTPUT = [
  'whether we do',
  '<s> 0.000 0.120 0.999700',
  'whether 0.130 0.400 0.238171',
  'we(2) 0.410 0.510 0.176895',
  '<sil> 0.520 0.980 0.999700',
  '[NOISE] 0.990 1.100 0.5',
  '++UM++ 1.100 1.150 0.5',
  'do 1.160 1.230 0.957907',
  '</s> 1.240 1.750 1.000000',
  'robert like',
  '<s> 4.000 4.290 0.999900',
  'robert 4.300 4.600 0.004975',
  'like 4.610 4.930 2.8e-05',
  '</s> 4.940 5.990 1.000000',
].join('\n');

describe('parsePocketsphinxWords', () => {
  const words = parsePocketsphinxWords(OUTPUT);

  it('keeps real words with their absolute times, across utterances', () => {
    expect(words).toEqual([
      { word: 'whether', startSeconds: 0.13, endSeconds: 0.4 },
      { word: 'we', startSeconds: 0.41, endSeconds: 0.51 },
      { word: 'do', startSeconds: 1.16, endSeconds: 1.23, endsUtterance: true },
      { word: 'robert', startSeconds: 4.3, endSeconds: 4.6 },
      { word: 'like', startSeconds: 4.61, endSeconds: 4.93, endsUtterance: true },
    ]);
  });

  it('drops sentence markers, silence and noise tokens', () => {
    expect(words.map((w) => w.word).join(' ')).not.toMatch(/[<[+]/);
  });

  it('strips alternate-pronunciation suffixes', () => {
    expect(words.some((w) => w.word.includes('('))).toBe(false);
  });

  it('ignores hypothesis lines, even four-word ones', () => {
    expect(parsePocketsphinxWords('one two three four\nfive six seven eight')).toEqual([]);
  });

  it('returns nothing for empty output (silence)', () => {
    expect(parsePocketsphinxWords('')).toEqual([]);
  });
});
