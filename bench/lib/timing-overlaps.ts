import type { Span } from './sentence-boundaries';

// Two dubbed voices at once, or two caption cues on screen at once, is a defect (issue 29: goal
// 0). Spans that touch are fine; the EPSILON absorbs float noise and the millisecond rounding of
// caption times.

const EPSILON = 0.002;

/** Pairs of spans, taken in start order, where the later one starts before the earlier one ends. */
export function countOverlaps(spans: readonly Span[]): { overlaps: number; largestOverlapSeconds: number } {
  const sorted = [...spans].sort((a, b) => a.startSeconds - b.startSeconds || a.endSeconds - b.endSeconds);
  let overlaps = 0;
  let largest = 0;
  let reach = -Infinity;
  for (const span of sorted) {
    const overlap = reach - span.startSeconds;
    if (overlap > EPSILON) {
      overlaps++;
      largest = Math.max(largest, overlap);
    }
    reach = Math.max(reach, span.endSeconds);
  }
  return { overlaps, largestOverlapSeconds: largest };
}

/** The cues of a WebVTT file (times only). */
export function vttCues(vtt: string): Span[] {
  const time = (t: string) => {
    const parts = t.split(':').map(Number);
    return parts.reduce((total, part) => total * 60 + part, 0);
  };
  const cues: Span[] = [];
  for (const match of vtt.matchAll(/((?:\d+:)?\d{2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{2}:\d{2}\.\d{3})/g)) {
    cues.push({ startSeconds: time(match[1]!), endSeconds: time(match[2]!) });
  }
  return cues;
}
