import { pcmWav } from '../../src/engines/tts/wav-file';

// Voice-like synthetic speech for the diarizer's unit tests: glottal pulses at a voice's pitch
// through three resonators at its formants (a source-filter model of vowels), in syllables with
// short gaps between. The formants glide continuously around the voice's own (as the vowels of
// running speech do) and the pitch rises and falls a little, so each voice has a pitch and a
// spectral envelope of its own and any second of it sounds like any other. Exact, made in
// milliseconds, no engine.

export const RATE = 16_000;

export interface SyntheticVoice {
  pitchHz: number;
  /** F1, F2, F3 around which the voice's formants move. */
  formantsHz: [number, number, number];
}

export const LOW_VOICE: SyntheticVoice = { pitchHz: 110, formantsHz: [500, 1500, 2500] };
export const HIGH_VOICE: SyntheticVoice = { pitchHz: 220, formantsHz: [650, 1850, 2950] };
export const MIDDLE_VOICE: SyntheticVoice = { pitchHz: 160, formantsHz: [420, 1250, 2200] };

const SYLLABLE_SECONDS = 0.22;
const GAP_SECONDS = 0.05;
/** Resonator coefficients are recomputed this often (samples): 5 ms. */
const BLOCK = 80;

/** `seconds` of `voice`; `seed` shifts the phases of its formant and pitch movements. */
export function syntheticSpeech(voice: SyntheticVoice, seconds: number, seed = 1): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  const random = lcg(seed);
  const phases = Array.from({ length: 5 }, () => 2 * Math.PI * random());
  const cycle = Math.round((SYLLABLE_SECONDS + GAP_SECONDS) * RATE);
  const voiced = Math.round(SYLLABLE_SECONDS * RATE);
  const filters = voice.formantsHz.map((_, k) => new Resonator(60 + 40 * k));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    if (i % BLOCK === 0) {
      const f1 = voice.formantsHz[0] * (1 + 0.25 * Math.sin(2 * Math.PI * 1.3 * t + phases[0]!) + 0.1 * Math.sin(2 * Math.PI * 3.1 * t + phases[1]!));
      const f2 = voice.formantsHz[1] * (1 + 0.2 * Math.sin(2 * Math.PI * 1.7 * t + phases[2]!) + 0.1 * Math.sin(2 * Math.PI * 2.3 * t + phases[3]!));
      [f1, f2, voice.formantsHz[2]].forEach((hz, k) => filters[k]!.tune(hz));
    }
    const pitch = voice.pitchHz * (1 + 0.05 * Math.sin(2 * Math.PI * 0.9 * t + phases[4]!));
    phase += pitch / RATE;
    let x = 0;
    if (phase >= 1) {
      phase -= 1;
      x = 1;
    }
    x += 0.02 * (random() * 2 - 1);
    for (const filter of filters) x = filter.step(x);
    const inCycle = i % cycle;
    out[i] = inCycle < voiced ? x * Math.sin((Math.PI * inCycle) / voiced) : 0;
  }
  const peak = out.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  for (let i = 0; i < out.length; i++) out[i] = (out[i]! / peak) * 0.5;
  return out;
}

export function silence(seconds: number): Float32Array {
  return new Float32Array(Math.round(seconds * RATE));
}

/** A 16 kHz mono 16-bit WAV of the parts one after another. */
export function wavOf(parts: readonly Float32Array[]): Buffer {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const pcm = Buffer.alloc(total * 2);
  let at = 0;
  for (const part of parts) {
    for (const v of part) pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), 2 * at++);
  }
  return pcmWav(RATE, pcm);
}

/** A two-pole resonator whose centre frequency can move. */
class Resonator {
  private readonly r: number;
  private a1 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(bandwidthHz: number) {
    this.r = Math.exp((-Math.PI * bandwidthHz) / RATE);
  }

  tune(hz: number): void {
    this.a1 = 2 * this.r * Math.cos((2 * Math.PI * hz) / RATE);
  }

  step(x: number): number {
    const y = (1 - this.r) * x + this.a1 * this.y1 - this.r * this.r * this.y2;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

function lcg(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}
