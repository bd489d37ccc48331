import type { Cue } from '../publish/captions';
import { captionReadingChars, type CaptionRules } from './timed-text-rules';

// When each cue of a track leaves the screen (docs/captions.md#how-cues-are-timed). A cue starts
// where its words are heard and never earlier or later: the speech fixes every start. Its end is
// free within what the next cue allows:
// - a cue shown for less than it takes to read (the preset's characters a second) or less than
//   the minimum duration stays on into the silence after it, up to what it needs and at most the
//   maximum duration;
// - it ends at least the minimum gap before the next cue starts: its end is trimmed for that,
//   though never below the minimum duration (or below what it had, when it had less); there the
//   gap gives way, and the cue still ends no later than the next one starts;
// - nothing is stretched past the end of the media (`endSeconds`).
// What the speech makes impossible stays so, and QC reports it (qc-cues.ts): a cue is never
// dropped or shortened to nothing to hide a breach. Times are whole milliseconds, the resolution
// of every format written (SRT, WebVTT, TTML), so what QC reads back is what was decided here.

const toMs = (seconds: number) => Math.round(seconds * 1000);

export interface CueTimingOptions {
  /** The media's end: no cue stays on past it. Absent: no limit. */
  endSeconds?: number;
}

export function timeCues(cues: readonly Cue[], rules: CaptionRules, options: CueTimingOptions = {}): Cue[] {
  const gap = Math.ceil(rules.minGapSeconds * 1000 - 1e-6);
  const minDuration = Math.ceil(rules.minDurationSeconds * 1000 - 1e-6);
  const maxDuration = Math.floor(rules.maxDurationSeconds * 1000 + 1e-6);
  const mediaEnd = options.endSeconds === undefined ? Infinity : toMs(options.endSeconds);
  const starts = cues.map((cue) => toMs(cue.startSeconds));
  return cues.map((cue, i) => {
    const start = starts[i]!;
    const heard = Math.max(toMs(cue.endSeconds), start);
    const nextStart = starts[i + 1] ?? mediaEnd;
    // What a viewer needs: time to read it, and never less than the minimum on screen.
    const reading = Math.ceil((captionReadingChars(cue.text) * 1000) / rules.maxCharsPerSecond - 1e-6);
    const needed = Math.min(maxDuration, Math.max(minDuration, reading));
    const latest = i + 1 < cues.length ? nextStart - gap : mediaEnd;
    let end = Math.min(Math.max(heard, start + needed), latest);
    if (end < heard) {
      // Trimmed for the gap: not below the minimum on screen (or what the words had, if less).
      const floor = start + Math.min(heard - start, minDuration);
      if (end < floor) end = Math.min(floor, nextStart);
    }
    return { ...cue, startSeconds: start / 1000, endSeconds: Math.max(end, start) / 1000 };
  });
}
