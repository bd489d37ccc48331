import type { FrameTrack } from './frame-features';

// A stretch of speech modelled as one full-covariance Gaussian over its frames' features, kept as
// sufficient statistics (count, sum, sum of outer products) so two stretches merge by addition.
// The Bayesian information criterion compares "one voice" (one Gaussian for both stretches)
// against "two voices" (one each), charging the second model for its extra parameters:
//   ΔBIC = ½ (n log|Σ| − n₁ log|Σ₁| − n₂ log|Σ₂|) − λ · ½ (d + d(d+1)/2) · log n
// ΔBIC > 0: two voices explain the frames better than one, even after the charge.
// (Chen & Gopalakrishnan, 1998.) docs/speakers.md#finding-speakers

/** Added to each variance, relative to the feature's spread, so a short stretch has no singular covariance. */
const RIDGE = 1e-3;

export class GaussianStats {
  count = 0;
  readonly sum: Float64Array;
  /** Upper triangle, row by row, of Σ x xᵀ. */
  readonly outer: Float64Array;

  constructor(readonly dimensions: number) {
    this.sum = new Float64Array(dimensions);
    this.outer = new Float64Array((dimensions * (dimensions + 1)) / 2);
  }

  /** The statistics of `track`'s frames at positions [first, end). */
  static ofFrames(track: FrameTrack, first: number, end: number): GaussianStats {
    const stats = new GaussianStats(track.dimensions);
    for (let i = first; i < end; i++) stats.addFrame(track.vectors, i * track.dimensions);
    return stats;
  }

  addFrame(vectors: Float64Array, offset: number): void {
    const d = this.dimensions;
    this.count++;
    let k = 0;
    for (let i = 0; i < d; i++) {
      const xi = vectors[offset + i]!;
      this.sum[i] = this.sum[i]! + xi;
      for (let j = i; j < d; j++, k++) this.outer[k] = this.outer[k]! + xi * vectors[offset + j]!;
    }
  }

  add(other: GaussianStats): this {
    this.count += other.count;
    for (let i = 0; i < this.sum.length; i++) this.sum[i] = this.sum[i]! + other.sum[i]!;
    for (let i = 0; i < this.outer.length; i++) this.outer[i] = this.outer[i]! + other.outer[i]!;
    return this;
  }

  subtract(other: GaussianStats): this {
    this.count -= other.count;
    for (let i = 0; i < this.sum.length; i++) this.sum[i] = this.sum[i]! - other.sum[i]!;
    for (let i = 0; i < this.outer.length; i++) this.outer[i] = this.outer[i]! - other.outer[i]!;
    return this;
  }

  clone(): GaussianStats {
    return new GaussianStats(this.dimensions).add(this);
  }

  /**
   * log |Σ| of the covariance, by Cholesky; `ridge` per dimension is added to its variance. The
   * sample covariance of few frames is too narrow (its log-determinant expected below the true
   * one by logDetBias), which alone would make every short piece look like a voice of its own;
   * the expected shortfall is added back.
   */
  logDetCovariance(ridge: Float64Array): number {
    const d = this.dimensions;
    const n = this.count;
    const a = new Float64Array(d * d);
    let k = 0;
    for (let i = 0; i < d; i++) {
      for (let j = i; j < d; j++) {
        const value = this.outer[k++]! / n - (this.sum[i]! / n) * (this.sum[j]! / n);
        a[i * d + j] = value;
        a[j * d + i] = value;
      }
      a[i * d + i] = a[i * d + i]! + ridge[i]!;
    }
    let logDet = 0;
    for (let j = 0; j < d; j++) {
      let diagonal = a[j * d + j]!;
      for (let m = 0; m < j; m++) diagonal -= a[j * d + m]! ** 2;
      if (!(diagonal > 0)) diagonal = 1e-12;
      const root = Math.sqrt(diagonal);
      a[j * d + j] = root;
      logDet += 2 * Math.log(root);
      for (let i = j + 1; i < d; i++) {
        let value = a[i * d + j]!;
        for (let m = 0; m < j; m++) value -= a[i * d + m]! * a[j * d + m]!;
        a[i * d + j] = value / root;
      }
    }
    return logDet - logDetBias(d, n);
  }

  /** The per-dimension ridge for a whole recording: RIDGE × each feature's variance over these statistics. */
  ridge(): Float64Array {
    const d = this.dimensions;
    const out = new Float64Array(d);
    for (let i = 0, k = 0; i < d; k += d - i, i++) {
      const mean = this.sum[i]! / Math.max(1, this.count);
      out[i] = RIDGE * Math.max(1e-9, this.outer[k]! / Math.max(1, this.count) - mean * mean);
    }
    return out;
  }
}

/** The BIC model-size charge, per unit of λ, for telling apart two Gaussians over n frames. */
export function bicPenalty(dimensions: number, n: number): number {
  return 0.5 * (dimensions + (dimensions * (dimensions + 1)) / 2) * Math.log(n);
}

/** ΔBIC of keeping `a` and `b` apart (> 0: two voices). */
export function deltaBic(a: GaussianStats, b: GaussianStats, lambda: number, ridge: Float64Array): number {
  const joined = a.clone().add(b);
  const n = joined.count;
  return 0.5 * (n * joined.logDetCovariance(ridge) - a.count * a.logDetCovariance(ridge) - b.count * b.logDetCovariance(ridge)) - lambda * bicPenalty(a.dimensions, n);
}

/**
 * E[log|S|] − log|Σ| for the maximum-likelihood covariance S of n Gaussian frames in d
 * dimensions (mean estimated): d·log(2/n) + Σᵢ ψ((n − i)/2), i = 1..d (nS is Wishart with n − 1
 * degrees of freedom). Negative, and → 0 as n grows.
 */
export function logDetBias(d: number, n: number): number {
  if (n <= d + 1) return logDetBias(d, d + 2);
  let bias = d * Math.log(2 / n);
  for (let i = 1; i <= d; i++) bias += digamma((n - i) / 2);
  return bias;
}

/** ψ(x) for x > 0: shifted up by ψ(x) = ψ(x + 1) − 1/x, then the asymptotic series. */
export function digamma(x: number): number {
  let result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const inverse2 = 1 / (x * x);
  return result + Math.log(x) - 0.5 / x - inverse2 * (1 / 12 - inverse2 * (1 / 120 - inverse2 * (1 / 252 - inverse2 * (1 / 240 - inverse2 / 132))));
}
