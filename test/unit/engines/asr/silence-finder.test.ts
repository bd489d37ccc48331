import { findQuietSpans } from '../../../../src/engines/asr/silence-finder';
import { pcm } from '../../../helpers/synthetic-pcm';

const RATE = 16000;

describe('findQuietSpans', () => {
  it('finds each gap of at least 0.3 s between sounds, within a window of its true bounds', () => {
    const samples = pcm([
      { kind: 'tone', seconds: 2 },
      { kind: 'silence', seconds: 0.5 },
      { kind: 'noise', seconds: 1.5 },
      { kind: 'silence', seconds: 0.1 }, // a stop inside a word: too short to be a pause
      { kind: 'tone', seconds: 1 },
      { kind: 'silence', seconds: 1.2 },
      { kind: 'noise', seconds: 1 },
    ]);
    const spans = findQuietSpans(samples, RATE);
    expect(spans).toHaveLength(2);
    expect(spans[0]!.startSeconds).toBeCloseTo(2, 1);
    expect(spans[0]!.endSeconds).toBeCloseTo(2.5, 1);
    expect(spans[1]!.startSeconds).toBeCloseTo(5.1, 1);
    expect(spans[1]!.endSeconds).toBeCloseTo(6.3, 1);
  });

  it('treats room tone far below the speech level as quiet', () => {
    const samples = pcm([
      { kind: 'noise', seconds: 2, level: 0.3 },
      { kind: 'noise', seconds: 0.6, level: 0.003 }, // -40 dB under the speech
      { kind: 'noise', seconds: 2, level: 0.3 },
    ]);
    const spans = findQuietSpans(samples, RATE);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.startSeconds).toBeCloseTo(2, 1);
  });

  it('finds no pause in sound without gaps', () => {
    expect(findQuietSpans(pcm([{ kind: 'tone', seconds: 5 }]), RATE)).toEqual([]);
    expect(findQuietSpans(pcm([{ kind: 'noise', seconds: 5, level: 0.01 }]), RATE)).toEqual([]);
  });

  it('finds one pause spanning a silent clip, and nothing in an empty one', () => {
    expect(findQuietSpans(pcm([{ kind: 'silence', seconds: 3 }]), RATE)).toEqual([{ startSeconds: 0, endSeconds: 3 }]);
    expect(findQuietSpans(new Int16Array(0), RATE)).toEqual([]);
  });
});
