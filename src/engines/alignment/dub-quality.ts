import type { DubQuality } from '../../shared/dub-quality';
import type { FittedSegment } from './fit-segments';

// How well one language's dub follows its source, measured from what the render actually used
// (issue 11: a faster pipeline that worsens any of these is not faster). Pure: no I/O. The
// measures' shape is in src/shared, as the database stores it with the language.

export type { DubQuality } from '../../shared/dub-quality';

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
