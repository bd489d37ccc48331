import type { Cue } from '../publish/captions';
import { captionChars } from '../shared/caption-rules';
import { captionReadingChars, type CaptionRules } from './timed-text-rules';

// Timed-text QC (docs/captions.md#qc): each cue held to each rule of a preset, and every breach
// named with the value found and the limit it breaks. Pure, and run on the cues as published (the
// WebVTT read back), so it judges exactly what a viewer gets. Times are compared in whole
// milliseconds, the resolution of the files.

export const CAPTION_RULE_NAMES = ['line_length', 'line_count', 'reading_speed', 'min_duration', 'max_duration', 'min_gap'] as const;

export type CaptionRuleName = (typeof CAPTION_RULE_NAMES)[number];

export interface CaptionBreach {
  rule: CaptionRuleName;
  /**
   * What the cue has: its longest line's characters, its lines, its characters a second, its
   * seconds on screen, or the seconds to the next cue's start (negative: they overlap).
   */
  value: number;
  limit: number;
}

export interface QcCue {
  /** 1-based: the cue's number in the SRT file. */
  index: number;
  start: number;
  end: number;
  /** The cue's words, its lines separated by `\n`. */
  text: string;
  breaches: CaptionBreach[];
}

export interface QcTotals {
  cues: number;
  cues_with_breaches: number;
  breaches: number;
  by_rule: Record<CaptionRuleName, number>;
}

export interface QcReport {
  cues: QcCue[];
  totals: QcTotals;
}

const ms = (seconds: number) => Math.round(seconds * 1000);
/** A speed shown rounded up to the hundredth, so a breach never reads as equal to its limit. */
const speed = (value: number) => Math.ceil(value * 100 - 1e-6) / 100;

export function qcCues(cues: readonly Cue[], rules: CaptionRules): QcReport {
  const checked = cues.map((cue, i): QcCue => {
    const lines = cue.text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const [start, end] = [ms(cue.startSeconds), ms(cue.endSeconds)];
    const durationMs = end - start;
    const breaches: CaptionBreach[] = [];
    const longest = Math.max(0, ...lines.map(captionChars));
    if (longest > rules.maxLineChars) breaches.push({ rule: 'line_length', value: longest, limit: rules.maxLineChars });
    if (lines.length > rules.maxLines) breaches.push({ rule: 'line_count', value: lines.length, limit: rules.maxLines });
    // A cue with no time at all reads at its characters per millisecond: still a number to report.
    const cps = (captionReadingChars(cue.text) * 1000) / Math.max(durationMs, 1);
    if (cps > rules.maxCharsPerSecond + 1e-9) breaches.push({ rule: 'reading_speed', value: speed(cps), limit: rules.maxCharsPerSecond });
    if (durationMs < rules.minDurationSeconds * 1000 - 1e-6) breaches.push({ rule: 'min_duration', value: durationMs / 1000, limit: rules.minDurationSeconds });
    if (durationMs > rules.maxDurationSeconds * 1000 + 1e-6) breaches.push({ rule: 'max_duration', value: durationMs / 1000, limit: rules.maxDurationSeconds });
    const next = cues[i + 1];
    if (next) {
      const gapMs = ms(next.startSeconds) - end;
      if (gapMs < rules.minGapSeconds * 1000 - 1e-6) breaches.push({ rule: 'min_gap', value: gapMs / 1000, limit: rules.minGapSeconds });
    }
    return { index: i + 1, start: start / 1000, end: end / 1000, text: lines.join('\n'), breaches };
  });
  const byRule = Object.fromEntries(CAPTION_RULE_NAMES.map((rule) => [rule, 0])) as Record<CaptionRuleName, number>;
  for (const cue of checked) for (const breach of cue.breaches) byRule[breach.rule]++;
  return {
    cues: checked,
    totals: {
      cues: checked.length,
      cues_with_breaches: checked.filter((c) => c.breaches.length > 0).length,
      breaches: checked.reduce((sum, c) => sum + c.breaches.length, 0),
      by_rule: byRule,
    },
  };
}
