import { fft } from './fft';

// Mel-frequency cepstral coefficients of one short frame: the spectral envelope a voice's vocal
// tract gives its sounds, the usual feature for telling speakers apart. c0 (the frame's
// loudness) is left out: a speaker does not change by speaking louder.
// docs/speakers.md#finding-speakers

export interface MfccSettings {
  sampleRate: number;
  /** Samples per frame (25 ms). */
  frameSamples: number;
  /** Mel filters spread from lowHz to highHz. */
  filters?: number;
  /** Cepstral coefficients kept after c0. */
  coefficients?: number;
  lowHz?: number;
  highHz?: number;
}

const PRE_EMPHASIS = 0.97;

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOfMel = (m: number) => 700 * (10 ** (m / 2595) - 1);

export class MfccAnalyzer {
  readonly coefficients: number;
  private readonly frameSamples: number;
  private readonly fftSize: number;
  private readonly window: Float64Array;
  /** Per filter: first FFT bin and its weights. */
  private readonly bank: { first: number; weights: Float64Array }[];
  /** DCT-II rows for c1..cN. */
  private readonly dct: Float64Array[];
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly logMel: Float64Array;

  constructor(settings: MfccSettings) {
    const filters = settings.filters ?? 24;
    this.coefficients = settings.coefficients ?? 12;
    this.frameSamples = settings.frameSamples;
    this.fftSize = 2 ** Math.ceil(Math.log2(settings.frameSamples));
    this.window = Float64Array.from({ length: settings.frameSamples }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (settings.frameSamples - 1)));
    const low = mel(settings.lowHz ?? 100);
    const high = mel(Math.min(settings.highHz ?? 7600, settings.sampleRate / 2));
    const binOf = (hz: number) => (hz * this.fftSize) / settings.sampleRate;
    const edges = Array.from({ length: filters + 2 }, (_, i) => binOf(hzOfMel(low + ((high - low) * i) / (filters + 1))));
    this.bank = Array.from({ length: filters }, (_, f) => {
      const [left, centre, right] = [edges[f]!, edges[f + 1]!, edges[f + 2]!];
      const first = Math.ceil(left);
      const last = Math.min(this.fftSize / 2, Math.floor(right));
      const weights = new Float64Array(Math.max(0, last - first + 1));
      for (let bin = first; bin <= last; bin++) weights[bin - first] = bin <= centre ? (bin - left) / (centre - left) : (right - bin) / (right - centre);
      return { first, weights };
    });
    this.dct = Array.from({ length: this.coefficients }, (_, k) => Float64Array.from({ length: filters }, (_, f) => Math.cos((Math.PI * (k + 1) * (f + 0.5)) / filters)));
    this.re = new Float64Array(this.fftSize);
    this.im = new Float64Array(this.fftSize);
    this.logMel = new Float64Array(filters);
  }

  /** Writes c1..cN of the frame starting at `start` into `out` (from `outOffset`). */
  compute(samples: Float32Array, start: number, out: Float64Array, outOffset = 0): void {
    const { re, im, window, frameSamples } = this;
    re.fill(0);
    im.fill(0);
    let previous = start > 0 ? samples[start - 1]! : 0;
    for (let i = 0; i < frameSamples; i++) {
      const x = samples[start + i] ?? 0;
      re[i] = (x - PRE_EMPHASIS * previous) * window[i]!;
      previous = x;
    }
    fft(re, im);
    for (let f = 0; f < this.bank.length; f++) {
      const { first, weights } = this.bank[f]!;
      let energy = 0;
      for (let j = 0; j < weights.length; j++) {
        const bin = first + j;
        energy += weights[j]! * (re[bin]! * re[bin]! + im[bin]! * im[bin]!);
      }
      this.logMel[f] = Math.log(energy + 1e-10);
    }
    for (let k = 0; k < this.coefficients; k++) {
      const row = this.dct[k]!;
      let sum = 0;
      for (let f = 0; f < row.length; f++) sum += row[f]! * this.logMel[f]!;
      out[outOffset + k] = sum;
    }
  }
}
