import type { FittedSegment } from './fit-segments';

// How well one language's dub follows its source, measured from what the render actually used
// (issue 11: a faster pipeline that worsens any of these is not faster). Pure: no I/O.

export interface DubQuality {
  /** Sentences placed on the timeline. */
  sentences: number;
  /**
   * Largest gap, in ms, between where a source sentence starts and where its dub becomes audible
   * (the clip's start plus its own leading silence, played at its tempo). Goal ≤ 100.
   */
  maxStartOffsetMs: number;
  /** Highest speed-up used (1 = none). Goal ≤ 1.3. */
  maxTempo: number;
  /** Sum of how far clips run past the next sentence's start (or the end), in seconds. */
  totalDriftSeconds: number;
  /** Dubbed track length ÷ source length. Goal within 1 ± 0.05. */
  lengthRatio: number;
  /** Caption cues that are not inside the span of their spoken clip. Goal 0. */
  cuesOutsideClips: number;
  /**
   * Sentences that start while an earlier one is still playing, or whose cue starts before an
   * earlier cue ends: two voices or two captions at once (docs/recognition.md#timing). Goal 0.
   */
  overlaps: number;
  /** Largest delay, in seconds, of a sentence behind its source because the one before ran long. */
  maxShiftSeconds: number;
}

export interface PlacedSentence {
  /** Where the source sentence starts. */
  sourceStartSeconds: number;
  fitted: FittedSegment;
  /** Silence at the head of the synthesized clip, at normal speed. */
  leadingSilenceSeconds: number;
  cue: { startSeconds: number; endSeconds: number };
}

/** Below this a difference is float noise. */
const EPSILON = 1e-6;

export function measureDubQuality(sentences: readonly PlacedSentence[], lengths: { sourceSeconds: number; dubbedSeconds: number }): DubQuality {
  let maxStartOffsetMs = 0;
  let maxTempo = 1;
  let totalDriftSeconds = 0;
  let cuesOutsideClips = 0;
  let overlaps = 0;
  let maxShiftSeconds = 0;
  let clipsEnd = -Infinity;
  let cuesEnd = -Infinity;
  for (const { sourceStartSeconds, fitted, leadingSilenceSeconds, cue } of [...sentences].sort((a, b) => a.fitted.startSeconds - b.fitted.startSeconds)) {
    if (fitted.startSeconds < clipsEnd - EPSILON || cue.startSeconds < cuesEnd - EPSILON) overlaps++;
    clipsEnd = Math.max(clipsEnd, fitted.endSeconds);
    cuesEnd = Math.max(cuesEnd, cue.endSeconds);
    maxShiftSeconds = Math.max(maxShiftSeconds, fitted.startSeconds - sourceStartSeconds);
    const audible = fitted.startSeconds + leadingSilenceSeconds / fitted.tempo;
    maxStartOffsetMs = Math.max(maxStartOffsetMs, Math.abs(audible - sourceStartSeconds) * 1000);
    maxTempo = Math.max(maxTempo, fitted.tempo);
    totalDriftSeconds += fitted.driftSeconds;
    if (cue.startSeconds < fitted.startSeconds - EPSILON || cue.endSeconds > fitted.endSeconds + EPSILON || cue.endSeconds < cue.startSeconds) cuesOutsideClips++;
  }
  return {
    sentences: sentences.length,
    maxStartOffsetMs: round(maxStartOffsetMs, 1),
    maxTempo: round(maxTempo, 3),
    totalDriftSeconds: round(totalDriftSeconds, 3),
    lengthRatio: lengths.sourceSeconds > 0 ? round(lengths.dubbedSeconds / lengths.sourceSeconds, 4) : 1,
    cuesOutsideClips,
    overlaps,
    maxShiftSeconds: round(maxShiftSeconds, 3),
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
