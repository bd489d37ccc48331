import { timeCues } from '../captions/cue-timing';
import { CAPTION_PRESETS, type CaptionRules } from '../captions/timed-text-rules';
import { captionLines, cutIntoCues, cutStrength, STANDARD_CUE_SHAPE, type CaptionUnit, type CueShape } from '../shared/caption-rules';
import type { Cue } from './captions';

// A dubbed line's caption as viewers see it (docs/captions.md#how-cues-are-cut): at most two
// lines of 42 characters and 7 s a cue (the preset's shape). A translation is often longer than
// its source sentence, so a line whose words do not fit one cue is shown as consecutive cues
// inside the same span, cut between words, at a sentence or clause end where it has one; each
// cue's share of the span follows its share of the characters, which is how long it takes to say.
// The track's cues are then timed to the preset's reading speed, durations and gaps
// (src/captions/cue-timing.ts).

export interface LayoutOptions {
  /** The media's end: no cue stays on past it. */
  endSeconds?: number;
}

export function layoutCaptions(cues: readonly Cue[], rules: CaptionRules = CAPTION_PRESETS.standard, options: LayoutOptions = {}): Cue[] {
  // A line pushed past the source's end is never heard: it shows no caption either.
  const cut = cues.filter((c) => c.endSeconds > c.startSeconds).flatMap((cue) => layoutCaption(cue, rules));
  return timeCues(cut, rules, options);
}

export function layoutCaption(cue: Cue, shape: CueShape = STANDARD_CUE_SHAPE): Cue[] {
  const words = cue.text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [cue];
  const span = cue.endSeconds - cue.startSeconds;
  const total = words.reduce((sum, w) => sum + w.length + 1, 0);
  let before = 0;
  const units: CaptionUnit[] = words.map((text) => {
    const startSeconds = cue.startSeconds + (span * before) / total;
    before += text.length + 1;
    return { text, startSeconds, endSeconds: cue.startSeconds + (span * before) / total, cutAfter: cutStrength(text) };
  });
  const runs = cutIntoCues(units, shape);
  return runs.map((run, i) => ({
    // Each cue runs until the next begins, the last to the line's end; the timing leaves the gap.
    startSeconds: i === 0 ? cue.startSeconds : run[0]!.startSeconds,
    endSeconds: i === runs.length - 1 ? cue.endSeconds : runs[i + 1]![0]!.startSeconds,
    text: (captionLines(run.map((u) => u.text).join(' '), shape) ?? [run.map((u) => u.text).join(' ')]).join('\n'),
    // Every cue of a line is the line's speaker's (a WebVTT voice span each).
    ...(cue.speaker ? { speaker: cue.speaker } : {}),
  }));
}
