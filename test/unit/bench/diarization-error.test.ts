import { diarizationError } from '../../../bench/lib/diarization-error';

describe('diarizationError (bench/lib/diarization-error.ts)', () => {
  // Reference: A 0–10, B 10–20. Collars of 0.25 s around 0, 10 and 20 leave 9.5 + 9.5 = 19 s scored
  // (0–0.25, 9.75–10.25 and 19.75–20 are not scored).
  const reference = [
    { startSeconds: 0, endSeconds: 10, speaker: 'A' },
    { startSeconds: 10, endSeconds: 20, speaker: 'B' },
  ];

  it('is 0 for a perfect answer whatever the labels, and maps the labels', () => {
    const result = diarizationError(reference, [
      { startSeconds: 0, endSeconds: 10, speaker: 1 },
      { startSeconds: 10, endSeconds: 20, speaker: 0 },
    ]);
    expect(result.der).toBe(0);
    expect(result.scoredSeconds).toBeCloseTo(19, 9);
    expect([...result.mapping]).toEqual([
      [1, 'A'],
      [0, 'B'],
    ]);
  });

  it('adds missed, false alarm and confusion over the scored time, outside the collars', () => {
    const result = diarizationError(reference, [
      // Speaker 0 = A until 8, then says 8–12 (2 s of confusion past B's collar: 10.25–12 = 1.75 s).
      { startSeconds: 0.1, endSeconds: 12, speaker: 0 },
      // Nothing 12–14: 2 s missed. Speaker 1 = B 14–20, then a false alarm 20–23 (20.25–23 scored: 2.75 s).
      { startSeconds: 14, endSeconds: 23, speaker: 1 },
    ]);
    expect(result.confusionSeconds).toBeCloseTo(1.75, 9);
    expect(result.missedSeconds).toBeCloseTo(2, 9);
    expect(result.falseAlarmSeconds).toBeCloseTo(2.75, 9);
    expect(result.der).toBeCloseTo((1.75 + 2 + 2.75) / 19, 9);
  });

  it('maps one to one: one speaker said for everything is right on the longer reference speaker only', () => {
    const result = diarizationError(
      [
        { startSeconds: 0, endSeconds: 6, speaker: 'A' },
        { startSeconds: 6, endSeconds: 10, speaker: 'B' },
      ],
      [{ startSeconds: 0, endSeconds: 10, speaker: 0 }],
      0,
    );
    expect(result.mapping.get(0)).toBe('A');
    expect(result.confusionSeconds).toBeCloseTo(4, 9);
    expect(result.der).toBeCloseTo(0.4, 9);
  });
});
