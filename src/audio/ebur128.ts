// Reads ffmpeg's `ebur128=peak=true` summary (printed on stderr when the filter closes) into
// numbers (docs/audio.md#measurement). The summary is the last block of its kind in the log.

import type { LoudnessBlocks } from './loudness-blocks';

export interface LoudnessMeasurement {
  /** Integrated loudness, LUFS; -Infinity for silence (ffmpeg prints -70.0 at its floor). */
  integratedLufs: number;
  /** Loudness range, LU. */
  rangeLu: number;
  /** The highest true peak of any channel, dBTP; null when the filter was run without peak=true. */
  truePeakDbtp: number | null;
  /** Every 100 ms frame's figures, when the run printed them (a master's measurement). */
  blocks?: LoudnessBlocks;
}

/** The measurement in the last `Summary:` block of `stderr`, or null when there is none. */
export function parseEbur128Summary(stderr: string): LoudnessMeasurement | null {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const value = (pattern: RegExp) => {
    const match = pattern.exec(summary);
    return match ? Number(match[1]) : null;
  };
  const integrated = value(/\bI:\s+(-?[\d.]+|-inf)\s+LUFS/);
  const range = value(/\bLRA:\s+(-?[\d.]+)\s+LU\b/);
  if (integrated === null || range === null || Number.isNaN(range)) return null;
  const peak = /\bPeak:\s+(-?[\d.]+|-inf)\s+dBFS/.exec(summary);
  return {
    integratedLufs: Number.isNaN(integrated) ? Number.NEGATIVE_INFINITY : integrated,
    rangeLu: range,
    truePeakDbtp: peak ? (peak[1] === '-inf' ? Number.NEGATIVE_INFINITY : Number(peak[1])) : null,
  };
}

/**
 * The momentary and short-term loudness of every 100 ms frame, from the file `ametadata=mode=print`
 * writes after `ebur128=metadata=1` (one `lavfi.r128.M=` and one `lavfi.r128.S=` line a frame).
 * ebur128 keeps running sums: after a sound, digital silence can leave one a rounding error under
 * zero and print `nan`, which its gate leaves out as it does silence; read as −∞, it is silence here too.
 */
export function parseEbur128Frames(printed: string): LoudnessBlocks {
  const value = (text: string) => (Number.isNaN(Number(text)) ? Number.NEGATIVE_INFINITY : Number(text));
  const series = (key: 'M' | 'S') => Array.from(printed.matchAll(new RegExp(`^lavfi\\.r128\\.${key}=(\\S+)$`, 'gm')), (m) => value(m[1]!));
  const blocks = { momentary: series('M'), shortTerm: series('S') };
  if (blocks.momentary.length !== blocks.shortTerm.length) throw new Error(`ebur128 printed ${blocks.momentary.length} momentary and ${blocks.shortTerm.length} short-term figures`);
  return blocks;
}
