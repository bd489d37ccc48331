// The ducking envelope (docs/background.md#duck): how far the original soundtrack is lowered at
// each sample of the timeline, from where the dub speaks. A pure function of the sample's place on
// the whole timeline's clock, so a span rendered on its own is ducked exactly as the whole render
// ducks it (what a regeneration's splice relies on: src/engines/media/splice-spans.ts).

/** A stretch of the timeline, in seconds. */
export interface Stretch {
  startSeconds: number;
  endSeconds: number;
}

export interface DuckShape {
  /** The original's gain under speech, relative to its level between sentences (0.1: 20 dB lower). */
  underSpeechGain: number;
  /** The fade down, ending where speech starts. */
  attackSeconds: number;
  /** The fade back up, starting where speech ends. */
  releaseSeconds: number;
  /** A pause between sentences shorter than this stays ducked: no pumping between close lines. */
  holdSeconds: number;
}

export interface DuckEnvelope extends DuckShape {
  /** Where the dub speaks, on the whole timeline's clock (every clip, not only a span's). */
  speech: readonly Stretch[];
  /**
   * Under speech, play only the side signal (L−R, R−L) of a stereo original: the centre, where a
   * voice is usually mixed, goes. Only for an original whose channels differ (stereoWidth).
   */
  removeCentre: boolean;
}

/**
 * How far the envelope can reach from a clip that came, went or moved: a regeneration's spans
 * widen each changed stretch by this much, so that outside them the old and new envelopes agree.
 * A changed clip alters which pauses are held within `hold` of it, and a changed edge of a held
 * stretch moves a fade of at most `attack` or `release` beyond it.
 */
export const envelopeReachSeconds = (shape: DuckShape) => shape.holdSeconds + Math.max(shape.attackSeconds, shape.releaseSeconds);

/** The stretches ducked fully: the speech, with the pauses shorter than `holdSeconds` between them. */
export function heldStretches(speech: readonly Stretch[], holdSeconds: number): Stretch[] {
  const out: Stretch[] = [];
  for (const s of [...speech].filter((s) => s.endSeconds > s.startSeconds).sort((a, b) => a.startSeconds - b.startSeconds)) {
    const last = out.at(-1);
    if (last && s.startSeconds - last.endSeconds < holdSeconds) last.endSeconds = Math.max(last.endSeconds, s.endSeconds);
    else out.push({ ...s });
  }
  return out;
}

/** 0 (not ducked) to 1 (fully ducked) at `seconds`, for one held stretch. */
function depthFor(s: Stretch, shape: DuckShape, seconds: number): number {
  if (seconds < s.startSeconds) return Math.max(0, 1 - (s.startSeconds - seconds) / shape.attackSeconds);
  if (seconds > s.endSeconds) return Math.max(0, 1 - (seconds - s.endSeconds) / shape.releaseSeconds);
  return 1;
}

/** The ducking depth, 0 to 1, at a time: linear fades into and out of each held stretch (sorted). */
export function duckDepth(held: readonly Stretch[], shape: DuckShape, seconds: number): number {
  let depth = 0;
  for (let k = 0; k < held.length; k++) {
    const s = held[k]!;
    if (seconds < s.startSeconds - shape.attackSeconds) break;
    const d = depthFor(s, shape, seconds);
    if (d > depth) depth = d;
  }
  return depth;
}

/** A gain `depth` of the way from 1 to `under`: exactly 1 at depth 0 and exactly `under` at depth 1. */
const towards = (under: number, depth: number) => 1 - depth + depth * under;

/** The gains of the original's centre (mid, (L+R)/2) and side ((L−R)/2) at a ducking depth. */
export function duckGains(envelope: Pick<DuckEnvelope, 'underSpeechGain' | 'removeCentre'>, depth: number): { mid: number; side: number } {
  return { mid: towards(envelope.removeCentre ? 0 : envelope.underSpeechGain, depth), side: towards(envelope.underSpeechGain, depth) };
}

/**
 * Ducks interleaved 16-bit stereo samples in place. `firstSample` is the first frame's index on
 * the whole timeline's clock at `sampleRate`. Between sentences a frame is left exactly as it was.
 */
export function duckPcm(pcm: Int16Array, firstSample: number, sampleRate: number, envelope: DuckEnvelope, held: readonly Stretch[]): void {
  const frames = pcm.length >> 1;
  const from = firstSample / sampleRate;
  const to = (firstSample + frames) / sampleRate;
  // Only the held stretches whose fades reach this block; most blocks have one or two, many none.
  const near = held.filter((s) => s.endSeconds + envelope.releaseSeconds >= from && s.startSeconds - envelope.attackSeconds <= to);
  if (near.length === 0) return;
  const shape: DuckShape = { underSpeechGain: envelope.underSpeechGain, attackSeconds: envelope.attackSeconds, releaseSeconds: envelope.releaseSeconds, holdSeconds: envelope.holdSeconds };
  const midUnder = envelope.removeCentre ? 0 : envelope.underSpeechGain;
  const sideUnder = envelope.underSpeechGain;
  for (let f = 0; f < frames; f++) {
    const depth = duckDepth(near, shape, (firstSample + f) / sampleRate);
    if (depth === 0) continue;
    const mid = towards(midUnder, depth);
    const side = towards(sideUnder, depth);
    const l = pcm[2 * f]!;
    const r = pcm[2 * f + 1]!;
    const m = (l + r) / 2;
    const s = (l - r) / 2;
    // |mid·M ± side·S| <= |M| + |S| = max(|L|, |R|): the gains are at most 1, so nothing clips.
    pcm[2 * f] = Math.round(mid * m + side * s);
    pcm[2 * f + 1] = Math.round(mid * m - side * s);
  }
}

/**
 * How wide a stereo original is: the side signal's energy relative to the centre's, in dB
 * (−Infinity for identical channels, a mono source copied to both). Over interleaved 16-bit stereo.
 */
export function sideToMidDb(sums: { mid: number; side: number }): number {
  if (sums.side === 0) return Number.NEGATIVE_INFINITY;
  return 10 * Math.log10(sums.side / Math.max(sums.mid, Number.MIN_VALUE));
}

/** Adds a block's mid and side energies to `sums`. */
export function addStereoEnergy(pcm: Int16Array, sums: { mid: number; side: number }): void {
  for (let i = 0; i + 1 < pcm.length; i += 2) {
    const m = (pcm[i]! + pcm[i + 1]!) / 2;
    const s = (pcm[i]! - pcm[i + 1]!) / 2;
    sums.mid += m * m;
    sums.side += s * s;
  }
}
