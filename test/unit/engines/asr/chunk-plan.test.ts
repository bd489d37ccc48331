import { planChunks, placeChunkWords, type AudioChunk } from '../../../../src/engines/asr/chunk-plan';
import { findQuietSpans, type QuietSpan } from '../../../../src/engines/asr/silence-finder';
import { pcm } from '../../../helpers/synthetic-pcm';

const RATE = 16000;

/** `seconds` of alternating 3.7 s sounds and 0.4 s gaps: pauses everywhere but not on round numbers. */
function speechLike(seconds: number): Int16Array {
  const parts: { kind: 'tone' | 'noise' | 'silence'; seconds: number }[] = [];
  for (let t = 0; t < seconds; t += 4.1) parts.push({ kind: t % 8.2 < 4 ? 'tone' : 'noise', seconds: 3.7 }, { kind: 'silence', seconds: 0.4 });
  return pcm(parts);
}

function inside(t: number, spans: readonly QuietSpan[]): boolean {
  return spans.some((q) => t > q.startSeconds && t < q.endSeconds);
}

describe('planChunks', () => {
  it('cuts a long clip into as many chunks as cores, each cut inside a pause near equal division', () => {
    const samples = speechLike(62);
    const duration = samples.length / RATE;
    const quiet = findQuietSpans(samples, RATE);
    const chunks = planChunks(duration, quiet, { maxChunks: 3 });
    expect(chunks).toHaveLength(3);
    expect(chunks[0]!.startSeconds).toBe(0);
    expect(chunks[2]!.endSeconds).toBe(duration);
    for (let i = 1; i < chunks.length; i++) {
      const cut = chunks[i]!.startSeconds;
      expect(chunks[i - 1]!.endSeconds).toBe(cut); // contiguous: no audio lost or doubled
      expect(inside(cut, quiet)).toBe(true); // never inside sound
      expect(Math.abs(cut - (i * duration) / 3)).toBeLessThanOrEqual(duration / 3 / 4);
      // The lead-in starts earlier, in a pause too, about 5 s before the cut.
      expect(chunks[i]!.decodeFromSeconds).toBeLessThan(cut - 4);
      expect(inside(chunks[i]!.decodeFromSeconds, quiet)).toBe(true);
    }
    expect(chunks[0]!.decodeFromSeconds).toBe(0);
  });

  it('prefers a long pause (an utterance end for the decoder) over a nearer short one', () => {
    const quiet = [
      { startSeconds: 29.8, endSeconds: 30.1 },
      { startSeconds: 33, endSeconds: 34 },
    ];
    expect(planChunks(60, quiet, { maxChunks: 2 }).map((c) => c.startSeconds)).toEqual([0, 33.5]);
  });

  it('cuts fewer chunks when no pause is near a cut point, rather than splitting sound', () => {
    const quiet = [{ startSeconds: 19.8, endSeconds: 20.2 }]; // near the first of two cuts (20 s, 40 s) only
    const chunks = planChunks(60, quiet, { maxChunks: 3 });
    expect(chunks.map((c) => [c.startSeconds, c.endSeconds])).toEqual([
      [0, 20],
      [20, 60],
    ]);
  });

  it('does not split sound without pauses, a silent clip, a short clip, or on one core', () => {
    const tone = pcm([{ kind: 'tone', seconds: 40 }]);
    expect(planChunks(40, findQuietSpans(tone, RATE), { maxChunks: 2 })).toHaveLength(1);
    const silence = pcm([{ kind: 'silence', seconds: 40 }]);
    // One pause covering the whole clip ends at its end: nothing to cut between.
    expect(planChunks(40, findQuietSpans(silence, RATE), { maxChunks: 2 })).toHaveLength(1);
    const short = speechLike(15);
    expect(planChunks(15, findQuietSpans(short, RATE), { maxChunks: 2 })).toEqual([{ startSeconds: 0, endSeconds: 15, decodeFromSeconds: 0 }]);
    const long = speechLike(60);
    expect(planChunks(60, findQuietSpans(long, RATE), { maxChunks: 1 })).toHaveLength(1);
    expect(planChunks(60, findQuietSpans(long, RATE), { maxChunks: 2 })).toHaveLength(2);
  });
});

describe('placeChunkWords', () => {
  it('shifts words by where the decoded audio began and drops the lead-in words', () => {
    const chunk: AudioChunk = { startSeconds: 30, endSeconds: 60, decodeFromSeconds: 25 };
    const words = [
      { word: 'lead', startSeconds: 1, endSeconds: 1.5 },
      { word: 'own', startSeconds: 5.2, endSeconds: 5.6 },
      { word: 'later', startSeconds: 10, endSeconds: 10.4 },
    ];
    expect(placeChunkWords(chunk, words)).toEqual([
      { word: 'own', startSeconds: 30.2, endSeconds: 30.6 },
      { word: 'later', startSeconds: 35, endSeconds: 35.4 },
    ]);
  });
});
