// A mix's loudness as ebur128 computes it every 100 ms (docs/audio.md#regenerations): the
// momentary loudness (the 400 ms gating block ending there) and the short-term loudness (the 3 s
// window ending there). The integrated loudness and the loudness range are gated statistics of
// these two series, so a regeneration that measures only the frames its spans reach, splices them
// into the recorded series and gates again gets what measuring the whole spliced mix would, at a
// cost that grows with the change instead of the video. The gating follows ffmpeg's ebur128
// (BS.1770-4, EBU Tech 3342): 0.01 LU histograms, −70 LUFS absolute gate, relative gates of
// −10 LU (integrated) and −20 LU (range), range from the 10th to the 95th percentile.

/** ebur128 computes both figures every 4800 samples at 48 kHz. */
export const FRAME_SAMPLES = 4800;
/** A short-term window spans this many frames: a frame's figure depends on this many frames' samples. */
export const SHORT_TERM_FRAMES = 30;

export interface LoudnessBlocks {
  /** LUFS per frame (the 400 ms ending there); under −70 for a frame before the window filled or for silence. */
  momentary: number[];
  /** LUFS per frame (the 3 s ending there); likewise. */
  shortTerm: number[];
}

const ABS_GATE = -70;
const HIST_GRAIN = 100;
const HIST_SIZE = (10 - ABS_GATE) * HIST_GRAIN + 1;
const energy = (lufs: number) => Math.pow(10, (lufs + 0.691) / 10);
const loudness = (power: number) => -0.691 + 10 * Math.log10(power + Number.EPSILON);
const bin = (lufs: number) => Math.min(HIST_SIZE - 1, Math.max(0, Math.round((lufs - ABS_GATE) * HIST_GRAIN)));
const binLoudness = (i: number) => i / HIST_GRAIN + ABS_GATE;

/** What passes the absolute gate, as a histogram, and the relative gate's bin. */
function gated(series: readonly number[], relativeGate: number): { histogram: Uint32Array; gateBin: number } | null {
  const histogram = new Uint32Array(HIST_SIZE);
  let sum = 0;
  let kept = 0;
  for (const lufs of series) {
    if (!(lufs >= ABS_GATE)) continue;
    histogram[bin(lufs)]!++;
    sum += energy(lufs);
    kept++;
  }
  return kept === 0 ? null : { histogram, gateBin: bin(loudness(sum / kept) + relativeGate) };
}

/** Integrated loudness, LUFS: −70 (ebur128's floor) when no block passes the gate. */
export function integratedLoudness(blocks: LoudnessBlocks): number {
  const gate = gated(blocks.momentary, -10);
  if (!gate) return ABS_GATE;
  let count = 0;
  let sum = 0;
  for (let i = gate.gateBin; i < HIST_SIZE; i++) {
    count += gate.histogram[i]!;
    sum += gate.histogram[i]! * energy(binLoudness(i));
  }
  return count === 0 ? ABS_GATE : loudness(sum / count);
}

/** Loudness range, LU: 0 when no window passes the gate. */
export function loudnessRange(blocks: LoudnessBlocks): number {
  const gate = gated(blocks.shortTerm, -20);
  if (!gate) return 0;
  let total = 0;
  for (let i = gate.gateBin; i < HIST_SIZE; i++) total += gate.histogram[i]!;
  if (total === 0) return 0;
  let low = ABS_GATE;
  const lowCount = Math.round(0.1 * total);
  for (let i = gate.gateBin, n = 0; i < HIST_SIZE; i++) {
    n += gate.histogram[i]!;
    if (n >= lowCount) {
      low = binLoudness(i);
      break;
    }
  }
  let high = ABS_GATE;
  const highCount = Math.round(0.95 * total);
  for (let i = HIST_SIZE - 1, n = total; i >= 0; i--) {
    n -= Math.min(n, gate.histogram[i]!);
    if (n < highCount) {
      high = binLoudness(i);
      break;
    }
  }
  return high - low;
}

/**
 * The frames a change to samples [fromSample, toSample) reaches: from the first frame whose
 * short-term window holds one of them to the last, clipped to the `frames` there are.
 */
export function framesReached(fromSample: number, toSample: number, frames: number): { from: number; to: number } {
  // Frame k (0-based) ends at sample (k + 1) × FRAME_SAMPLES and its window starts SHORT_TERM_FRAMES frames earlier.
  const from = Math.max(0, Math.floor(fromSample / FRAME_SAMPLES));
  const to = Math.min(frames, Math.ceil(toSample / FRAME_SAMPLES) + SHORT_TERM_FRAMES - 1);
  return { from, to };
}

/** `blocks` with frames from `at` on replaced by `measured`'s. */
export function spliceBlocks(blocks: LoudnessBlocks, at: number, measured: LoudnessBlocks): LoudnessBlocks {
  const splice = (series: number[], part: number[]) => [...series.slice(0, at), ...part, ...series.slice(at + part.length)];
  return { momentary: splice(blocks.momentary, measured.momentary), shortTerm: splice(blocks.shortTerm, measured.shortTerm) };
}

/** Stored in the revision's timeline record: each series as little-endian 16-bit hundredths of a LU, in base64. */
export interface EncodedBlocks {
  momentary: string;
  shortTerm: string;
}

const encodeSeries = (series: readonly number[]) => {
  const values = new Int16Array(series.map((lufs) => Math.min(32767, Math.max(-32768, Math.round(lufs * 100)))));
  return Buffer.from(values.buffer).toString('base64');
};
const decodeSeries = (text: string) => {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 2 }, (_, i) => bytes.readInt16LE(i * 2) / 100);
};

export const encodeBlocks = (blocks: LoudnessBlocks): EncodedBlocks => ({ momentary: encodeSeries(blocks.momentary), shortTerm: encodeSeries(blocks.shortTerm) });
export const decodeBlocks = (encoded: EncodedBlocks): LoudnessBlocks => ({ momentary: decodeSeries(encoded.momentary), shortTerm: decodeSeries(encoded.shortTerm) });
