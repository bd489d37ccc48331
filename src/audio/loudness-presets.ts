// The delivery standards a dubbed mix is normalized to (docs/audio.md#presets): an integrated
// loudness target measured per ITU-R BS.1770 and a true-peak ceiling. `none` normalizes nothing
// and levels nothing (the mix as it was before presets existed), yet is measured and reported.
// Pure data, so the API's schema, the CLI and the worker's mix name the same presets.

export const LOUDNESS_PRESET_NAMES = ['web', 'broadcast', 'atsc', 'none'] as const;

export type LoudnessPreset = (typeof LOUDNESS_PRESET_NAMES)[number];

export interface LoudnessTarget {
  /** Integrated loudness, LUFS (LKFS for ATSC: the same measure). */
  integratedLufs: number;
  /** The highest true peak allowed, dBTP. */
  truePeakDbtp: number;
}

export const LOUDNESS_PRESETS: Record<LoudnessPreset, LoudnessTarget | null> = {
  // Web video and podcasts (the usual streaming-platform figure).
  web: { integratedLufs: -16, truePeakDbtp: -1 },
  // EBU R128.
  broadcast: { integratedLufs: -23, truePeakDbtp: -1 },
  // ATSC A/85.
  atsc: { integratedLufs: -24, truePeakDbtp: -2 },
  none: null,
};

/** A new project's preset when the create names none; rows from before presets are `none` (migration 0040). */
export const DEFAULT_LOUDNESS_PRESET: LoudnessPreset = 'web';

/** How far from its target a spliced mix may land before the whole is normalized again (docs/audio.md#regenerations). */
export const SPLICE_TOLERANCE_LU = 0.5;
