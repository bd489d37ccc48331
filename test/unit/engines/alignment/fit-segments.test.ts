import { fitSegments, type SegmentToFit } from '../../../../src/engines/alignment/fit-segments';
import { MAX_SHIFT_SECONDS, RESCUE_MAX_TEMPO } from '../../../../src/shared/line-placement';

const seg = (startSeconds: number, endSeconds: number, synthesizedSeconds: number): SegmentToFit => ({ startSeconds, endSeconds, synthesizedSeconds });

describe('fitSegments', () => {
  it('leaves a clip that fits its slot at normal speed', () => {
    const { segments, totalDriftSeconds } = fitSegments([seg(1, 3, 1.5)], { timelineSeconds: 10 });
    expect(segments).toEqual([{ startSeconds: 1, endSeconds: 2.5, tempo: 1, driftSeconds: 0, shiftSeconds: 0 }]);
    expect(totalDriftSeconds).toBe(0);
  });

  it('never slows a short clip down', () => {
    const { segments } = fitSegments([seg(0, 5, 1)], { timelineSeconds: 5 });
    expect(segments[0]!.tempo).toBe(1);
    expect(segments[0]!.endSeconds).toBe(1);
  });

  it('speeds up just enough to fit the slot exactly', () => {
    const { segments } = fitSegments([seg(2, 4, 2.4)], { timelineSeconds: 10 });
    expect(segments[0]!.tempo).toBeCloseTo(1.2, 10);
    expect(segments[0]!.endSeconds).toBeCloseTo(4, 10);
    expect(segments[0]!.driftSeconds).toBe(0);
  });

  it('accepts exactly the maximum speed-up without drift', () => {
    const { segments } = fitSegments([seg(0, 2, 2.6), seg(2, 3, 0.5)], { timelineSeconds: 3 });
    expect(segments[0]!.tempo).toBeCloseTo(1.3, 10);
    expect(segments[0]!.endSeconds).toBeCloseTo(2, 10);
    expect(segments[0]!.driftSeconds).toBe(0);
  });

  it('caps the speed-up at 1.3× and borrows the silence before the next segment', () => {
    // 3.9 s of speech in a 2 s slot: at 1.3× it takes 3 s, ending at 3; next segment starts at 3.5.
    const { segments, totalDriftSeconds } = fitSegments([seg(0, 2, 3.9), seg(3.5, 5, 1)], { timelineSeconds: 6 });
    expect(segments[0]!.tempo).toBe(1.3);
    expect(segments[0]!.endSeconds).toBeCloseTo(3, 10);
    expect(segments[0]!.driftSeconds).toBe(0);
    expect(totalDriftSeconds).toBe(0);
  });

  it('reports drift when even the borrowed silence is not enough, and starts the next segment after it', () => {
    // At 1.3×, 5.2 s takes 4 s, ending at 4; the next segment starts at 3 → 1 s of drift, and the
    // next one waits for it (1 s of shift) at the cap, since nothing is left of its own slot.
    const { segments, totalDriftSeconds } = fitSegments([seg(0, 2, 5.2), seg(3, 4, 0.5)], { timelineSeconds: 6 });
    expect(segments[0]).toEqual({ startSeconds: 0, endSeconds: expect.closeTo(4, 10), tempo: 1.3, driftSeconds: expect.closeTo(1, 10), shiftSeconds: 0 });
    expect(segments[1]).toEqual({ startSeconds: expect.closeTo(4, 10), endSeconds: expect.closeTo(4 + 0.5 / 1.3, 10), tempo: 1.3, driftSeconds: 0, shiftSeconds: expect.closeTo(1, 10) });
    expect(totalDriftSeconds).toBeCloseTo(1, 10);
  });

  it('recovers a shift at the next pause long enough to absorb it', () => {
    // The first runs 1 s into the second's slot; the second, started 1 s late, ends at 3 + 1.5/1.3
    // ≈ 4.15 (its slot is 2 s, 1 s left, at the cap); the pause before the third (at 6) absorbs it.
    const { segments } = fitSegments([seg(0, 2, 3.9), seg(2, 4, 1.5), seg(6, 7, 1)], { timelineSeconds: 8 });
    expect(segments.map((s) => s.shiftSeconds)).toEqual([0, expect.closeTo(1, 10), 0]);
    expect(segments[1]!.tempo).toBe(1.3);
    expect(segments[2]).toEqual({ startSeconds: 6, endSeconds: 7, tempo: 1, driftSeconds: 0, shiftSeconds: 0 });
  });

  it('speeds a line past the cap rather than shift the next by more than MAX_SHIFT_SECONDS', () => {
    // 4.2 s of speech in a 1 s slot: at 1.3× it would end at 3.23, past the next start (1) plus
    // 2 s; at 1.4× it ends at 3 exactly. 6 s would need 2×: at RESCUE_MAX_TEMPO it ends at 4, 3 s
    // past the next start, so the bound holds as far as 1.5× allows and no further.
    const rescued = fitSegments([seg(0, 1, 4.2), seg(1, 2, 0.5)], { timelineSeconds: 10 });
    expect(rescued.segments[0]!.tempo).toBeCloseTo(4.2 / 3, 10);
    expect(rescued.segments[1]!.shiftSeconds).toBeCloseTo(MAX_SHIFT_SECONDS, 10);
    const beyond = fitSegments([seg(0, 1, 6), seg(1, 2, 0.5)], { timelineSeconds: 10 });
    expect(beyond.segments[0]!.tempo).toBe(RESCUE_MAX_TEMPO);
    expect(beyond.segments[1]!.startSeconds).toBeCloseTo(4, 10);
    expect(beyond.segments[1]!.shiftSeconds).toBeCloseTo(3, 10);
  });

  it('lets the last segment borrow up to the end of the timeline, and drift past it', () => {
    const fits = fitSegments([seg(8, 9, 2.6)], { timelineSeconds: 10 });
    expect(fits.segments[0]!.endSeconds).toBeCloseTo(10, 10);
    expect(fits.segments[0]!.driftSeconds).toBe(0);
    // Past the end even at the cap: sped up to RESCUE_MAX_TEMPO, and what remains is reported.
    const overruns = fitSegments([seg(8, 9, 3.9)], { timelineSeconds: 10 });
    expect(overruns.segments[0]!.tempo).toBe(RESCUE_MAX_TEMPO);
    expect(overruns.segments[0]!.endSeconds).toBeCloseTo(10.6, 10);
    expect(overruns.segments[0]!.driftSeconds).toBeCloseTo(0.6, 10);
  });

  it('sums drift over all segments', () => {
    // Each waits for the one before: 0–2 at the cap; then, with their slots gone and the timeline
    // ending at 3, 2–3.73 and 3.73–4.6 at RESCUE_MAX_TEMPO.
    const { segments, totalDriftSeconds } = fitSegments([seg(0, 1, 2.6), seg(1, 2, 2.6), seg(2, 3, 1.3)], { timelineSeconds: 3 });
    expect(segments.map((s) => s.tempo)).toEqual([1.3, RESCUE_MAX_TEMPO, RESCUE_MAX_TEMPO]);
    expect(segments.map((s) => s.driftSeconds)).toEqual([expect.closeTo(1, 10), expect.closeTo(2.6 / 1.5, 10), expect.closeTo(2 + 2.6 / 1.5 + 1.3 / 1.5 - 3, 10)]);
    expect(totalDriftSeconds).toBeCloseTo(1 + 2.6 / 1.5 + 2 + 2.6 / 1.5 + 1.3 / 1.5 - 3, 10);
  });

  it('never overlaps two clips, keeps tempos within bounds and never reports negative drift or shift', () => {
    const random = mulberry32(42);
    let start = 0;
    const input: SegmentToFit[] = [];
    for (let i = 0; i < 200; i++) {
      start += random() * 2;
      const end = start + random() * 4;
      input.push(seg(start, end, random() * 8));
      start = end;
    }
    const { segments, totalDriftSeconds } = fitSegments(input, { timelineSeconds: start + 1 });
    expect(segments).toHaveLength(input.length);
    segments.forEach((s, i) => {
      const source = input[i]!;
      const previous = segments[i - 1];
      expect(s.tempo).toBeGreaterThanOrEqual(1);
      expect(s.tempo).toBeLessThanOrEqual(RESCUE_MAX_TEMPO);
      expect(s.driftSeconds).toBeGreaterThanOrEqual(0);
      // Never before its sentence, never before the previous clip ends, and no later than needed.
      expect(s.startSeconds).toBeGreaterThanOrEqual(source.startSeconds);
      if (previous) expect(s.startSeconds).toBeGreaterThanOrEqual(previous.endSeconds - 1e-9);
      expect(s.startSeconds).toBeCloseTo(Math.max(source.startSeconds, previous?.endSeconds ?? 0), 9);
      expect(s.shiftSeconds).toBeCloseTo(s.startSeconds - source.startSeconds, 9);
      // Past the cap only to keep the next start within MAX_SHIFT_SECONDS of its sentence, or to end by the timeline's end.
      if (s.tempo > 1.3 + 1e-9) expect(s.endSeconds).toBeGreaterThan(Math.min((input[i + 1]?.startSeconds ?? Infinity) + MAX_SHIFT_SECONDS, start + 1) - 1e-6);
      // The clip at its tempo lasts exactly from start to end.
      expect((s.endSeconds - s.startSeconds) * s.tempo).toBeCloseTo(source.synthesizedSeconds, 9);
      // Drift appears only when the clip passes what could be borrowed.
      const limit = input[i + 1]?.startSeconds ?? start + 1;
      expect(s.driftSeconds).toBeCloseTo(Math.max(0, s.endSeconds - limit), 9);
      // A clip that fits what is left of its slot is never sped up.
      if (source.synthesizedSeconds <= source.endSeconds - s.startSeconds) expect(s.tempo).toBe(1);
    });
    expect(totalDriftSeconds).toBeCloseTo(
      segments.reduce((sum, s) => sum + s.driftSeconds, 0),
      9,
    );
  });

  it('honours a custom maximum tempo', () => {
    const { segments } = fitSegments([seg(0, 1, 2)], { timelineSeconds: 10, maxTempo: 1.5 });
    expect(segments[0]!.tempo).toBe(1.5);
    expect(segments[0]!.endSeconds).toBeCloseTo(2 / 1.5, 10);
  });

  it('handles a zero-length slot and a zero-length clip', () => {
    const { segments } = fitSegments([seg(1, 1, 1.3), seg(3, 4, 0)], { timelineSeconds: 5 });
    expect(segments[0]).toEqual({ startSeconds: 1, endSeconds: expect.closeTo(2, 10), tempo: 1.3, driftSeconds: 0, shiftSeconds: 0 });
    expect(segments[1]).toEqual({ startSeconds: 3, endSeconds: 3, tempo: 1, driftSeconds: 0, shiftSeconds: 0 });
  });

  it('returns nothing for no segments', () => {
    expect(fitSegments([], { timelineSeconds: 3 })).toEqual({ segments: [], totalDriftSeconds: 0 });
  });

  it.each([
    ['end before start', [seg(2, 1, 1)], 5],
    ['negative start', [seg(-1, 1, 1)], 5],
    ['negative duration', [seg(0, 1, -1)], 5],
    ['NaN', [seg(0, Number.NaN, 1)], 5],
    ['unordered segments', [seg(3, 4, 1), seg(1, 2, 1)], 5],
    ['negative timeline', [seg(0, 1, 1)], -1],
  ])('rejects %s', (_name, input, timelineSeconds) => {
    expect(() => fitSegments(input as SegmentToFit[], { timelineSeconds: timelineSeconds as number })).toThrow(RangeError);
  });

  it('rejects a maximum tempo below 1', () => {
    expect(() => fitSegments([], { timelineSeconds: 1, maxTempo: 0.9 })).toThrow(RangeError);
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
