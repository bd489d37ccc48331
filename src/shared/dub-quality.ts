// How well one language's dub follows its source: what src/engines/alignment/dub-quality.ts
// measures and the database stores with the language. A pure type, here so src/db imports no
// engine code.

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
