// Finds the pauses in 16-bit PCM by short-window RMS energy, in Node, so choosing where to cut a
// long recording for parallel recognition costs no extra process (ffmpeg silencedetect would
// decode the whole file once more).

export interface QuietSpan {
  startSeconds: number;
  endSeconds: number;
}

export interface SilenceOptions {
  /** Energy window; 10 ms is the recognizer's own frame rate. */
  windowSeconds?: number;
  /** Shorter dips (stops inside a word, the gap between two words) are not pauses. */
  minSilenceSeconds?: number;
  /** Quiet = below this fraction of the loud (90th percentile) window level: -26 dB. */
  relativeThreshold?: number;
  /** Below this level (of full scale) is quiet whatever the loud level: about -60 dBFS. */
  absoluteThreshold?: number;
}

export const DEFAULT_MIN_SILENCE_SECONDS = 0.3;

/** The quiet stretches of at least `minSilenceSeconds`, in time order. */
export function findQuietSpans(samples: Int16Array, sampleRate: number, options: SilenceOptions = {}): QuietSpan[] {
  const window = Math.max(1, Math.round((options.windowSeconds ?? 0.01) * sampleRate));
  const minWindows = Math.ceil(((options.minSilenceSeconds ?? DEFAULT_MIN_SILENCE_SECONDS) * sampleRate) / window - 1e-9);
  const levels = windowLevels(samples, window);
  if (levels.length === 0) return [];
  // Relative to the recording's own loud level, so a quiet recording or one with room tone still
  // has pauses, and a tone or steady noise with no dips has none.
  const loud = percentile(levels, 0.9);
  const threshold = Math.max(options.absoluteThreshold ?? 0.001, loud * (options.relativeThreshold ?? 0.05));

  const spans: QuietSpan[] = [];
  let runStart = -1;
  for (let i = 0; i <= levels.length; i++) {
    const quiet = i < levels.length && levels[i]! <= threshold;
    if (quiet && runStart < 0) runStart = i;
    if (!quiet && runStart >= 0) {
      if (i - runStart >= minWindows) {
        spans.push({ startSeconds: (runStart * window) / sampleRate, endSeconds: Math.min(i * window, samples.length) / sampleRate });
      }
      runStart = -1;
    }
  }
  return spans;
}

/** RMS (0–1 of full scale) of each consecutive window; the last may be short. */
function windowLevels(samples: Int16Array, window: number): Float64Array {
  const levels = new Float64Array(Math.ceil(samples.length / window));
  for (let w = 0; w < levels.length; w++) {
    const from = w * window;
    const to = Math.min(samples.length, from + window);
    let sum = 0;
    for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
    levels[w] = Math.sqrt(sum / (to - from)) / 32768;
  }
  return levels;
}

function percentile(values: Float64Array, fraction: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}
