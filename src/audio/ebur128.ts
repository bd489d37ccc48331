// Reads ffmpeg's `ebur128=peak=true` summary (printed on stderr when the filter closes) into
// numbers (docs/audio.md#measurement). The summary is the last block of its kind in the log.

export interface LoudnessMeasurement {
  /** Integrated loudness, LUFS; -Infinity for silence (ffmpeg prints -70.0 at its floor). */
  integratedLufs: number;
  /** Loudness range, LU. */
  rangeLu: number;
  /** The highest true peak of any channel, dBTP; null when the filter was run without peak=true. */
  truePeakDbtp: number | null;
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
