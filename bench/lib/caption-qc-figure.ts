import { qcCues, type QcReport } from '../../src/captions/qc-cues';
import { CAPTION_PRESETS, captionReadingChars } from '../../src/captions/timed-text-rules';
import { layoutCaption } from '../../src/publish/caption-layout';
import { parseVtt, type Cue } from '../../src/publish/captions';

// Issue 43's caption figure: the standard preset's breaches (docs/captions.md) in a dubbed
// language's captions before this change (each line cut into cues of 42 × 2, shown for the time
// its words take: src/publish/caption-layout.ts's cutting, without the timing) and after (the
// WebVTT as published, the timing included). A breach after is "forced" when the speech leaves
// the cue no room: the time up to the next cue (less the gap), the media's end or 7 s is too short
// for its characters at 17 a second, or for the minimum duration. The goal: no breach left but
// the forced ones.

export interface CaptionQcFigure {
  cues: { before: number; after: number };
  /** Cues breaking at least one rule. */
  breaching: { before: number; after: number };
  /** Breaches after, per rule. */
  byRule: QcReport['totals']['by_rule'];
  /** Breaches after that the speech forces. */
  forced: number;
  breachesAfter: number;
}

const RULES = CAPTION_PRESETS.standard;

/** `placed`: the language's lines where the dub placed them; `vtt`: the published captions. */
export function captionQcFigure(placed: readonly Cue[], vtt: string, mediaSeconds: number): CaptionQcFigure {
  const before = qcCues(
    placed.filter((c) => c.endSeconds > c.startSeconds).flatMap((c) => layoutCaption(c, RULES)),
    RULES,
  );
  const published = parseVtt(vtt);
  const after = qcCues(published, RULES);
  let forced = 0;
  after.cues.forEach((cue, i) => {
    const next = published[i + 1]?.startSeconds ?? mediaSeconds + RULES.minGapSeconds;
    const room = Math.min(next - RULES.minGapSeconds, cue.start + RULES.maxDurationSeconds, mediaSeconds) - cue.start;
    for (const breach of cue.breaches) {
      if (breach.rule === 'reading_speed' && captionReadingChars(cue.text) / RULES.maxCharsPerSecond > room + 0.001) forced++;
      else if (breach.rule === 'min_duration' && room < RULES.minDurationSeconds) forced++;
      // A gap kept short so the earlier cue stays on for its minimum: the speech left no room either.
      else if (breach.rule === 'min_gap' && cue.end - cue.start <= RULES.minDurationSeconds + 0.001) forced++;
    }
  });
  return {
    cues: { before: before.totals.cues, after: after.totals.cues },
    breaching: { before: before.totals.cues_with_breaches, after: after.totals.cues_with_breaches },
    byRule: after.totals.by_rule,
    forced,
    breachesAfter: after.totals.breaches,
  };
}
