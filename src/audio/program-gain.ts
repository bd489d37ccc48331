import type { LoudnessMeasurement } from './ebur128';
import type { EncodedBlocks } from './loudness-blocks';
import type { LoudnessPreset, LoudnessTarget } from './loudness-presets';

// The program gain of a normalized mix (docs/audio.md#normalization): one gain on the dialog and
// the background alike, worked out from the loudness of their unmastered sum, so the stems still
// sum to the mix. When the gain would put the true peak over the ceiling, a limiter holds the
// dialog bus alone under a sample-peak limit; if the mastered mix still peaks over (the background
// adding to a limited line), the gain and the limit are trimmed by the excess and it is mastered again.

export interface MasterSettings {
  gainDb: number;
  /** On the dialog bus, after the gain; null: none. */
  limiter: { limitDbfs: number; attackMs: number; releaseMs: number } | null;
}

/** What the revision's record keeps of its master: a span spliced later is mastered alike. */
export interface RecordedLoudness extends MasterSettings {
  preset: LoudnessPreset;
  /** The delivered mix, as measured (its figures; the frames are in `blocks`). */
  measured: LoudnessMeasurement;
  /**
   * The delivered mix's loudness every 100 ms, which a splice measures again around its spans and
   * gates anew (src/audio/loudness-blocks.ts). Absent in records written before it was kept, whose
   * next regeneration renders whole.
   */
  blocks?: EncodedBlocks;
}

/** The dialog limiter's sample-peak limit under the true-peak ceiling: inter-sample overs, and room for the background under a peak. */
const LIMIT_MARGIN_DB = 1.5;
/** A fast attack catches a syllable's onset; a short release does not pump between words. */
const ATTACK_MS = 5;
const RELEASE_MS = 50;
/** alimiter's lowest limit (0.0625). */
const LOWEST_LIMIT_DBFS = -24;
/** Trimmed this much past the excess: the re-measured peak is not exactly the predicted one. */
const TRIM_SLACK_DB = 0.1;

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * How far a true peak may sit above the sample peak pass one measures: inter-sample overs of
 * speech at 48 kHz stay well under it. Should one pass it, the master's measured true peak trims.
 */
export const INTER_SAMPLE_MARGIN_DB = 0.5;

/**
 * The master for the unmastered sum's measurement (its peak a sample peak): the gain to the
 * target, a limiter when the peak would pass the ceiling.
 */
export function programMaster(target: LoudnessTarget | null, sum: LoudnessMeasurement): MasterSettings {
  // Silence (or `none`) has no loudness to bring anywhere.
  if (!target || !Number.isFinite(sum.integratedLufs)) return { gainDb: 0, limiter: null };
  const gainDb = round2(target.integratedLufs - sum.integratedLufs);
  const peak = (sum.truePeakDbtp ?? Number.NEGATIVE_INFINITY) + INTER_SAMPLE_MARGIN_DB + gainDb;
  return { gainDb, limiter: peak > target.truePeakDbtp ? { limitDbfs: round2(target.truePeakDbtp - LIMIT_MARGIN_DB), attackMs: ATTACK_MS, releaseMs: RELEASE_MS } : null };
}

/** The master trimmed by how far the mastered mix peaked over the ceiling, or null when it did not. */
export function trimmedMaster(target: LoudnessTarget | null, master: MasterSettings, mix: LoudnessMeasurement): MasterSettings | null {
  if (!target || mix.truePeakDbtp === null || mix.truePeakDbtp <= target.truePeakDbtp) return null;
  const excess = mix.truePeakDbtp - target.truePeakDbtp + TRIM_SLACK_DB;
  return {
    gainDb: round2(master.gainDb - excess),
    limiter: master.limiter ? { ...master.limiter, limitDbfs: Math.max(LOWEST_LIMIT_DBFS, round2(master.limiter.limitDbfs - excess)) } : null,
  };
}
