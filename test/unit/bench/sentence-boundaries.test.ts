import { sentenceBoundaryFigures } from '../../../bench/lib/sentence-boundaries';
import { countOverlaps, vttCues } from '../../../bench/lib/timing-overlaps';

const span = (startSeconds: number, endSeconds: number) => ({ startSeconds, endSeconds });
// Three sentences: speech 0–2, 2.4–5, 5.5–8 (pauses 2–2.4 and 5–5.5).
const sentences = [span(0, 2), span(2.4, 5), span(5.5, 8)];

describe('sentence boundaries (bench/lib/sentence-boundaries.ts)', () => {
  it('is perfect when the segments are the sentences', () => {
    expect(sentenceBoundaryFigures(sentences, [span(0.05, 1.95), span(2.45, 4.9), span(5.6, 7.9)])).toEqual({ sentenceBoundaries: 2, segmentBoundaries: 2, matched: 2, recall: 1, precision: 1 });
  });

  it('loses recall when two sentences come out as one segment', () => {
    expect(sentenceBoundaryFigures(sentences, [span(0, 4.9), span(5.6, 8)])).toMatchObject({ matched: 1, recall: 0.5, precision: 1 });
  });

  it('loses precision for a segment that ends mid-sentence', () => {
    // A cut at 3.5 s, inside the second sentence, matches no pause.
    expect(sentenceBoundaryFigures(sentences, [span(0, 1.9), span(2.5, 3.4), span(3.6, 4.9), span(5.6, 8)])).toMatchObject({ segmentBoundaries: 3, matched: 2, recall: 1, precision: 2 / 3 });
  });

  it('counts two cuts in one pause once', () => {
    expect(sentenceBoundaryFigures(sentences, [span(0, 1.9), span(2.05, 2.1), span(2.5, 8)])).toMatchObject({ segmentBoundaries: 2, matched: 1 });
  });

  it('accepts a cut just outside the pause, within the tolerance', () => {
    expect(sentenceBoundaryFigures([span(0, 2), span(2.1, 4)], [span(0, 2.2), span(2.3, 4)])).toMatchObject({ matched: 1 });
    expect(sentenceBoundaryFigures([span(0, 2), span(2.1, 4)], [span(0, 2.5), span(2.7, 4)])).toMatchObject({ matched: 0 });
  });
});

describe('overlaps (bench/lib/timing-overlaps.ts)', () => {
  it('counts spans that start before an earlier one ends, not spans that touch', () => {
    expect(countOverlaps([span(0, 1), span(1, 2), span(3, 4)])).toEqual({ overlaps: 0, largestOverlapSeconds: 0 });
    const found = countOverlaps([span(0.14, 2.76), span(1.33, 3), span(3.5, 4)]);
    expect(found.overlaps).toBe(1);
    expect(found.largestOverlapSeconds).toBeCloseTo(1.43, 6);
  });

  it('reads the cue times of a WebVTT file', () => {
    const vtt = 'WEBVTT\n\n1\n00:00:00.140 --> 00:00:02.760\nHola.\n\n2\n00:01:01.330 --> 01:00:03.000\nAdiós.\n';
    expect(vttCues(vtt)).toEqual([span(0.14, 2.76), span(61.33, 3603)]);
  });
});
