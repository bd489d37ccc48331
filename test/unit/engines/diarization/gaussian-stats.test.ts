import { deltaBic, digamma, GaussianStats, logDetBias } from '../../../../src/engines/diarization/gaussian-stats';

/** Frames of a 2-D Gaussian-ish cloud centred at `mean`, deterministic. */
function cloud(mean: [number, number], count: number, seed: number): GaussianStats {
  const stats = new GaussianStats(2);
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  for (let i = 0; i < count; i++) {
    const normal = () => random() + random() + random();
    stats.addFrame(Float64Array.of(mean[0] + normal(), mean[1] + 0.5 * normal()), 0);
  }
  return stats;
}

describe('digamma and the log-determinant bias', () => {
  it('matches known values of ψ', () => {
    expect(digamma(1)).toBeCloseTo(-0.5772156649, 8);
    expect(digamma(0.5)).toBeCloseTo(-1.963510026, 8);
    expect(digamma(10)).toBeCloseTo(2.2517525891, 8);
  });

  it('is negative for few frames and vanishes for many', () => {
    expect(logDetBias(13, 30)).toBeLessThan(-3);
    expect(Math.abs(logDetBias(13, 1e6))).toBeLessThan(1e-3);
  });
});

describe('deltaBic', () => {
  const ridge = new Float64Array([1e-6, 1e-6]);

  it('says one voice (≤ 0) for two draws of the same cloud, two voices (> 0) for clouds apart', () => {
    expect(deltaBic(cloud([0, 0], 300, 1), cloud([0, 0], 300, 2), 1, ridge)).toBeLessThan(0);
    expect(deltaBic(cloud([0, 0], 300, 1), cloud([3, 1], 300, 2), 1, ridge)).toBeGreaterThan(0);
  });

  it('charges more with a larger λ', () => {
    const [a, b] = [cloud([0, 0], 200, 1), cloud([0.5, 0], 200, 2)];
    expect(deltaBic(a, b, 2, ridge)).toBeLessThan(deltaBic(a, b, 1, ridge));
  });

  it('needs more evidence from more frames: the same small shift is one voice in few frames, two in many', () => {
    expect(deltaBic(cloud([0, 0], 40, 1), cloud([0.6, 0], 40, 2), 1, ridge)).toBeLessThan(0);
    expect(deltaBic(cloud([0, 0], 4000, 1), cloud([0.6, 0], 4000, 2), 1, ridge)).toBeGreaterThan(0);
  });

  it('adds and subtracts statistics exactly', () => {
    const [a, b] = [cloud([0, 0], 50, 1), cloud([2, 2], 70, 2)];
    const back = a.clone().add(b).subtract(b);
    expect(back.count).toBe(50);
    expect([...back.sum].map((v, i) => v - a.sum[i]!).every((d) => Math.abs(d) < 1e-9)).toBe(true);
  });
});
