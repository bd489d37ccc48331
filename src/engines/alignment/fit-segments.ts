// Decides how each dubbed sentence fits the slot its source sentence occupied. A translation is
// often longer than the original; speeding speech up beyond ~1.3× hurts intelligibility and
// slowing it down sounds drunk, so the tempo only goes up, and what still does not fit spills
// into the silence after the slot. What is left over never plays over the next sentence: that
// one starts later instead, into its own pause, and catches up (docs/recognition.md#timing).
// The overrun is reported as drift and the delay as shift, instead of being hidden. Pure: no
// I/O, easy to test. The placement rules are src/shared/line-placement.ts, which a
// regeneration's quote uses too.

import { DEFAULT_MAX_TEMPO, placeInTimeline } from '../../shared/line-placement';

export { DEFAULT_MAX_TEMPO };

export interface SegmentToFit {
  /** Where the source sentence starts and ends on the timeline. */
  startSeconds: number;
  endSeconds: number;
  /** Length of the synthesized dub clip at normal speed. */
  synthesizedSeconds: number;
}

export interface FitOptions {
  /** Length of the whole timeline (the source media). */
  timelineSeconds: number;
  /** Highest speed-up; defaults to 1.3. */
  maxTempo?: number;
}

export interface FittedSegment {
  startSeconds: number;
  /** Where the dub clip ends once played at `tempo` (may pass the slot end, see driftSeconds). */
  endSeconds: number;
  /** Playback speed, 1 ≤ tempo ≤ maxTempo; 1 means leave the clip as it is. */
  tempo: number;
  /** How far the clip runs past the next segment's start (or the timeline end); ≥ 0. */
  driftSeconds: number;
  /** How much later than its source sentence the clip starts, because the one before ran long; ≥ 0. */
  shiftSeconds: number;
}

export interface FitResult {
  segments: FittedSegment[];
  /** Sum of every segment's drift. */
  totalDriftSeconds: number;
}

/** Below this, a difference is float noise, not a real overrun. */
const EPSILON = 1e-9;

export function fitSegments(segments: readonly SegmentToFit[], options: FitOptions): FitResult {
  const maxTempo = options.maxTempo ?? DEFAULT_MAX_TEMPO;
  if (!Number.isFinite(maxTempo) || maxTempo < 1) throw new RangeError(`maxTempo must be >= 1, got ${maxTempo}`);
  if (!Number.isFinite(options.timelineSeconds) || options.timelineSeconds < 0) {
    throw new RangeError(`timelineSeconds must be a finite number >= 0, got ${options.timelineSeconds}`);
  }
  validate(segments);

  const placements = placeInTimeline(
    segments.map((s) => ({ startSeconds: s.startSeconds, endSeconds: s.endSeconds, clipSeconds: s.synthesizedSeconds })),
    options.timelineSeconds,
    maxTempo,
  );
  const fitted: FittedSegment[] = placements.map(({ startSeconds, endSeconds, tempo, shiftSeconds }, i) => {
    // The silence after the slot can be borrowed up to where the next sentence starts.
    const limit = segments[i + 1]?.startSeconds ?? options.timelineSeconds;
    const overrun = endSeconds - limit;
    return { startSeconds, endSeconds, tempo, driftSeconds: overrun > EPSILON ? overrun : 0, shiftSeconds: shiftSeconds > EPSILON ? shiftSeconds : 0 };
  });
  const totalDriftSeconds = fitted.reduce((sum, s) => sum + s.driftSeconds, 0);
  return { segments: fitted, totalDriftSeconds };
}

function validate(segments: readonly SegmentToFit[]): void {
  segments.forEach((segment, i) => {
    const { startSeconds, endSeconds, synthesizedSeconds } = segment;
    if (![startSeconds, endSeconds, synthesizedSeconds].every(Number.isFinite)) {
      throw new RangeError(`segment ${i}: times must be finite numbers`);
    }
    if (startSeconds < 0 || endSeconds < startSeconds || synthesizedSeconds < 0) {
      throw new RangeError(`segment ${i}: needs 0 <= start <= end and a duration >= 0`);
    }
    const previous = segments[i - 1];
    if (previous && startSeconds < previous.startSeconds) {
      throw new RangeError(`segment ${i}: segments must be ordered by start time`);
    }
  });
}
