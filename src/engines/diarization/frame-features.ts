import { MfccAnalyzer } from './mfcc';
import type { Pacer } from './pacer';
import type { PcmAudio } from './wav-samples';
import { YinPitch } from './yin-pitch';

// Per 10 ms frame inside the spans that hold speech: MFCCs (the voice's spectral envelope), F0
// (its pitch) and loudness. Only frames that are both loud enough and voiced describe a speaker:
// silence, breath and fricatives sound alike whoever makes them. docs/speakers.md#finding-speakers

export const HOP_SECONDS = 0.01;
const FRAME_SECONDS = 0.025;
/** Frames more than this far below the loud frames (90th percentile) are pauses and breath. */
const SPEECH_RANGE_DB = 30;

export interface TimeSpan {
  startSeconds: number;
  endSeconds: number;
}

export interface FrameTrack {
  /** Values per frame in `vectors`: the MFCCs, then log F0. */
  dimensions: number;
  /** Global frame index (time = index × HOP_SECONDS) of each kept frame, ascending. */
  index: Int32Array;
  /** `dimensions` values per kept frame. */
  vectors: Float64Array;
  /** F0 of each kept frame, Hz. */
  pitchHz: Float32Array;
}

/** The loud, voiced frames inside `spans`, with their features. */
export async function frameTrack(audio: PcmAudio, spans: readonly TimeSpan[], pacer: Pacer): Promise<FrameTrack> {
  const { samples, sampleRate } = audio;
  const hop = Math.round(HOP_SECONDS * sampleRate);
  const frameSamples = Math.round(FRAME_SECONDS * sampleRate);
  const mfcc = new MfccAnalyzer({ sampleRate, frameSamples });
  const yin = new YinPitch({ sampleRate });
  const dimensions = mfcc.coefficients + 1;
  const totalFrames = Math.max(0, Math.floor((samples.length - frameSamples) / hop) + 1);

  // Frames to look at: the union of the spans.
  const wanted = new Uint8Array(totalFrames);
  for (const span of spans) {
    const first = Math.max(0, Math.floor(span.startSeconds / HOP_SECONDS));
    const last = Math.min(totalFrames, Math.ceil(span.endSeconds / HOP_SECONDS));
    wanted.fill(1, first, last);
  }
  const energy = new Float32Array(totalFrames).fill(Number.NEGATIVE_INFINITY);
  const loudness: number[] = [];
  for (let f = 0; f < totalFrames; f++) {
    if (!wanted[f]) continue;
    let sum = 0;
    for (let i = f * hop, end = i + frameSamples; i < end; i++) sum += samples[i]! * samples[i]!;
    energy[f] = 10 * Math.log10(sum / frameSamples + 1e-12);
    loudness.push(energy[f]!);
  }
  const gate = loudness.length > 0 ? percentile(loudness, 0.9) - SPEECH_RANGE_DB : Infinity;

  const index: number[] = [];
  const vectors: number[] = [];
  const pitches: number[] = [];
  const row = new Float64Array(dimensions);
  // Pitch runs on a decimated copy of each run of wanted frames.
  for (let f = 0; f < totalFrames;) {
    if (!wanted[f]) {
      f++;
      continue;
    }
    let end = f;
    while (end < totalFrames && wanted[end]) end++;
    const from = f * hop;
    const decimated = yin.decimate(samples, from, Math.min(samples.length, end * hop + frameSamples + yin.span * (sampleRate / yin.rate)));
    const ratio = yin.rate / sampleRate;
    for (; f < end; f++) {
      if (energy[f]! < gate) continue;
      const pitch = yin.estimate(decimated, Math.round((f * hop - from) * ratio));
      if (pitch <= 0) continue;
      mfcc.compute(samples, f * hop, row);
      row[dimensions - 1] = Math.log(pitch);
      index.push(f);
      pitches.push(pitch);
      for (let d = 0; d < dimensions; d++) vectors.push(row[d]!);
      await pacer.breathe();
    }
  }
  return { dimensions, index: Int32Array.from(index), vectors: Float64Array.from(vectors), pitchHz: Float32Array.from(pitches) };
}

/** Positions in `track` of the kept frames inside [startSeconds, endSeconds): [first, end). */
export function framesIn(track: FrameTrack, span: TimeSpan): [number, number] {
  return [lowerBound(track.index, Math.ceil(span.startSeconds / HOP_SECONDS - 1e-9)), lowerBound(track.index, Math.ceil(span.endSeconds / HOP_SECONDS - 1e-9))];
}

function lowerBound(values: Int32Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
