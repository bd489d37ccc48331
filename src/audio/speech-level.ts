// A spoken clip's speech level from its own samples, and the gain that levels it
// (docs/audio.md#levelling). The level is a gated RMS over 400 ms blocks, as BS.1770 gates its
// blocks (absolute gate, then a relative one 10 dB under the blocks' mean), without K-weighting:
// the clips are one synthesized voice each, and what matters is that two lines measured alike
// play alike. A clip's gain depends on nothing but its own samples and a fixed reference, so a
// regeneration changes only the gains of the lines it speaks again.

/** The level every line is brought to before the mix, dBFS RMS of its speech. */
export const SPEECH_REFERENCE_DBFS = -20;
/** The most a line is raised or lowered: a whisper stays a whisper, a shout is not made louder than speech. */
export const MAX_LEVELLING_DB = 12;

const BLOCK_SECONDS = 0.4;
const STEP_SECONDS = 0.1;
/** Blocks quieter than this are silence (BS.1770's absolute gate). */
const ABSOLUTE_GATE_DBFS = -70;
const RELATIVE_GATE_DB = -10;

const toDb = (power: number) => 10 * Math.log10(power);

/**
 * The speech level of 16-bit little-endian mono PCM, dBFS; null when it holds no sound above the
 * gate. A clip shorter than a block is measured as one block.
 */
export function speechLevelDb(pcm: Buffer, sampleRate: number): number | null {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return null;
  const block = Math.max(1, Math.round(BLOCK_SECONDS * sampleRate));
  const step = Math.max(1, Math.round(STEP_SECONDS * sampleRate));
  // Running sum of squares per step, so each block is a sum of four steps.
  const stepPower: number[] = [];
  for (let start = 0; start < samples; start += step) {
    let sum = 0;
    const end = Math.min(samples, start + step);
    for (let i = start; i < end; i++) {
      const s = pcm.readInt16LE(i * 2) / 32768;
      sum += s * s;
    }
    stepPower.push(sum);
  }
  const perBlock = Math.max(1, Math.round(block / step));
  const blocks: number[] = [];
  for (let i = 0; i + perBlock <= Math.max(perBlock, stepPower.length); i++) {
    const parts = stepPower.slice(i, i + perBlock);
    const length = Math.min(samples - i * step, block);
    blocks.push(parts.reduce((a, b) => a + b, 0) / Math.max(1, length));
  }
  const loud = blocks.filter((p) => p > 0 && toDb(p) > ABSOLUTE_GATE_DBFS);
  if (loud.length === 0) return null;
  const mean = loud.reduce((a, b) => a + b, 0) / loud.length;
  const gated = loud.filter((p) => toDb(p) > toDb(mean) + RELATIVE_GATE_DB);
  return toDb(gated.reduce((a, b) => a + b, 0) / gated.length);
}

/** The gain that brings a line measured at `levelDb` to the reference, within ±MAX_LEVELLING_DB; 0 for silence. */
export function levellingGainDb(levelDb: number | null): number {
  if (levelDb === null) return 0;
  const gain = Math.min(MAX_LEVELLING_DB, Math.max(-MAX_LEVELLING_DB, SPEECH_REFERENCE_DBFS - levelDb));
  // Two decimals: the record and the graph carry the same number.
  return Math.round(gain * 100) / 100;
}
