// The fundamental frequency (F0) of short frames by YIN (de Cheveigné & Kawahara, 2002): the lag
// at which the frame best matches itself, normalized so an octave too low is not preferred.
// Run on the signal decimated to about 8 kHz, which keeps every F0 a voice has (60–400 Hz) at a
// quarter of the work. docs/speakers.md#finding-speakers

export interface PitchSettings {
  sampleRate: number;
  minHz?: number;
  maxHz?: number;
  /** A lag whose normalized difference is below this is a period (YIN's absolute threshold). */
  threshold?: number;
}

/** Rate the pitch search runs at. */
const PITCH_RATE = 8000;
/** Low-pass taps before decimating (windowed sinc). */
const TAPS = 23;

export class YinPitch {
  /** The decimated signal's rate. */
  readonly rate: number;
  private readonly factor: number;
  private readonly lowPass: Float64Array;
  private readonly window: number;
  private readonly minLag: number;
  private readonly maxLag: number;
  private readonly threshold: number;
  private readonly difference: Float64Array;

  constructor(settings: PitchSettings) {
    this.factor = Math.max(1, Math.floor(settings.sampleRate / PITCH_RATE));
    this.rate = settings.sampleRate / this.factor;
    const cutoff = 0.45 / this.factor; // of the input rate: below the decimated Nyquist
    this.lowPass = Float64Array.from({ length: TAPS }, (_, i) => {
      const n = i - (TAPS - 1) / 2;
      const sinc = n === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * n) / (Math.PI * n);
      return sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (TAPS - 1)));
    });
    this.window = Math.round(0.025 * this.rate);
    this.minLag = Math.floor(this.rate / (settings.maxHz ?? 400));
    this.maxLag = Math.ceil(this.rate / (settings.minHz ?? 60));
    this.threshold = settings.threshold ?? 0.15;
    this.difference = new Float64Array(this.maxLag + 2);
  }

  /** Input samples [from, to) low-passed and decimated; sample i of the result is input sample from + i × factor. */
  decimate(samples: Float32Array, from: number, to: number): Float32Array {
    if (this.factor === 1) return samples.slice(from, to);
    const out = new Float32Array(Math.max(0, Math.floor((to - from) / this.factor)));
    const half = (TAPS - 1) / 2;
    for (let i = 0; i < out.length; i++) {
      const centre = from + i * this.factor;
      let sum = 0;
      for (let t = 0; t < TAPS; t++) sum += this.lowPass[t]! * (samples[centre + t - half] ?? 0);
      out[i] = sum;
    }
    return out;
  }

  /** Samples of the decimated signal one estimate reads from its start. */
  get span(): number {
    return this.window + this.maxLag + 1;
  }

  /** F0 in Hz of the decimated signal from `start`, or 0 when the frame is not periodic (unvoiced, silence, noise). */
  estimate(x: Float32Array, start: number): number {
    const { window, maxLag, difference: d } = this;
    if (start + window + maxLag + 1 > x.length) return 0;
    let energyHere = 0;
    for (let j = 0; j < window; j++) energyHere += x[start + j]! * x[start + j]!;
    if (energyHere <= 0) return 0;
    // d(τ) = Σ (x_j − x_{j+τ})² = e(0) + e(τ) − 2 r(τ), with e(τ) slid along.
    let energyThere = energyHere;
    let running = 0;
    d[0] = 1;
    for (let lag = 1; lag <= maxLag + 1; lag++) {
      energyThere += x[start + window + lag - 1]! ** 2 - x[start + lag - 1]! ** 2;
      let r = 0;
      for (let j = 0; j < window; j++) r += x[start + j]! * x[start + j + lag]!;
      const raw = Math.max(0, energyHere + energyThere - 2 * r);
      running += raw;
      // Cumulative-mean normalized difference d'(τ).
      d[lag] = running > 0 ? (raw * lag) / running : 1;
    }
    for (let lag = this.minLag; lag <= maxLag; lag++) {
      if (d[lag]! >= this.threshold) continue;
      while (lag < maxLag && d[lag + 1]! < d[lag]!) lag++;
      // Parabolic interpolation of the minimum between lags.
      const [a, b, c] = [d[lag - 1]!, d[lag]!, d[lag + 1]!];
      const bend = a - 2 * b + c;
      const shift = bend > 0 ? (0.5 * (a - c)) / bend : 0;
      return this.rate / (lag + Math.max(-0.5, Math.min(0.5, shift)));
    }
    return 0;
  }
}
