import type { LoudnessMeasurement } from './ebur128';
import type { LoudnessPreset } from './loudness-presets';

// What the project view reports of a language's delivered mix (docs/audio.md#report), stored as
// it is shown in project_languages.loudness_report when a revision publishes.

export interface LoudnessReport {
  preset: LoudnessPreset;
  /** Null for a silent mix (no block passes the gate). */
  integrated_lufs: number | null;
  range_lu: number;
  true_peak_dbtp: number | null;
}

const oneDecimal = (value: number | null) => (value === null || !Number.isFinite(value) ? null : Math.round(value * 10) / 10);

export function loudnessReport(preset: LoudnessPreset, measured: LoudnessMeasurement): LoudnessReport {
  return { preset, integrated_lufs: oneDecimal(measured.integratedLufs), range_lu: oneDecimal(measured.rangeLu) ?? 0, true_peak_dbtp: oneDecimal(measured.truePeakDbtp) };
}
