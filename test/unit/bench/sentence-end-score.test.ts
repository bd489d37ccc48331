import { scoreSentenceBoundaries } from '../../../bench/lib/sentence-end-score';

const cue = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });

describe('scoreSentenceBoundaries', () => {
  it('finds an end inside the gap between two cues, or within the tolerance of it', () => {
    const cues = [cue(0, 1.9), cue(2.1, 4), cue(4.05, 6)];
    // 2.0 sits in the first gap; 4.1 is 0.05 s past the second gap's end (within 0.15).
    expect(scoreSentenceBoundaries(cues, [2.0, 4.1])).toEqual({ sentenceEnds: 2, cueBoundaries: 2, found: 2, recall: 1, precision: 1 });
  });

  it('counts a cue cut inside a sentence against precision and a missed end against recall', () => {
    const cues = [cue(0, 1), cue(1.01, 3), cue(3.01, 5)];
    // The sentence ends at 2.0 (inside the second cue: missed); the cut at 1.0 and 3.0 end nothing.
    expect(scoreSentenceBoundaries(cues, [2.0])).toEqual({ sentenceEnds: 1, cueBoundaries: 2, found: 0, recall: 0, precision: 0 });
  });

  it('lets one boundary find at most one end', () => {
    const score = scoreSentenceBoundaries([cue(0, 1), cue(2, 3)], [1.2, 1.8]);
    expect(score).toMatchObject({ found: 1, recall: 0.5, precision: 1 });
  });

  it('scores one cue and no ends as perfect, and no cues against ends as nothing found', () => {
    expect(scoreSentenceBoundaries([cue(0, 1)], [])).toMatchObject({ recall: 1, precision: 1 });
    expect(scoreSentenceBoundaries([], [1])).toMatchObject({ found: 0, recall: 0, precision: 1 });
  });
});
