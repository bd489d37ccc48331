import { PLACEMENT_EPSILON_SECONDS } from './line-placement';

// The sync report (docs/editing.md#sync-report): how far the published revision bent each line
// to fit its source timing, and totals over the language. Pure: the segments endpoint computes
// it per GET from the lines' recorded placements, and the publish step stores its totals for the
// project view from the very same lines, so the two always agree for one revision.

/** A line played faster than this is flagged: past ~1.15× a listener starts to hear the hurry. */
export const SPED_UP_TEMPO = 1.15;

/** A line as the report reads it: its source slot and where the published revision placed it. */
export interface SyncLine {
  start_seconds: number;
  placed_start_seconds: number | null;
  placed_end_seconds: number | null;
  tempo: number | null;
}

export interface LineSync {
  /** The speed-up it played at (1: as synthesized). */
  tempo: number;
  /** Placed start − source start (≥ 0 as placed: a line never starts early). */
  shift_seconds: number;
  /**
   * It was still speaking when the next spoken line's source sentence began (placed end past the
   * next placed line's source start): that line then starts late, shifted by it.
   */
  overlaps_next: boolean;
}

export interface SyncTotals {
  /** Lines the revision plays a clip for. */
  lines: number;
  /** Lines faster than `sped_up_tempo`. */
  sped_up_lines: number;
  sped_up_tempo: number;
  max_tempo: number;
  max_shift_seconds: number;
  overlapping_lines: number;
}

export interface SyncReport {
  /** Per line, in the order given; null for a line the published revision plays nothing for. */
  lines: (LineSync | null)[];
  /** Null when no line was rendered yet. */
  totals: SyncTotals | null;
}

/** Milliseconds: finer is float noise for a listener, and keeps the JSON readable. */
const round = (value: number) => Math.round(value * 1000) / 1000;

const placed = (line: SyncLine): line is SyncLine & { placed_start_seconds: number; placed_end_seconds: number; tempo: number } =>
  line.placed_start_seconds !== null && line.placed_end_seconds !== null && line.tempo !== null;

/** `lines` in time order (a language's position order). */
export function syncReport(lines: readonly SyncLine[]): SyncReport {
  // The next spoken line after each: a silent or not yet rendered line pushes nothing.
  const nextPlacedStart: (number | null)[] = new Array(lines.length).fill(null);
  let following: number | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    nextPlacedStart[i] = following;
    if (placed(lines[i]!)) following = lines[i]!.start_seconds;
  }
  const report = lines.map((line, i): LineSync | null => {
    if (!placed(line)) return null;
    const next = nextPlacedStart[i] ?? null;
    return {
      tempo: round(line.tempo),
      shift_seconds: round(line.placed_start_seconds - line.start_seconds),
      overlaps_next: next !== null && line.placed_end_seconds > next + PLACEMENT_EPSILON_SECONDS,
    };
  });
  const spoken = report.filter((s): s is LineSync => s !== null);
  if (!spoken.length) return { lines: report, totals: null };
  return {
    lines: report,
    totals: {
      lines: spoken.length,
      // On the rounded tempo a reader sees, so a reader counting the lines counts the same.
      sped_up_lines: spoken.filter((s) => s.tempo > SPED_UP_TEMPO).length,
      sped_up_tempo: SPED_UP_TEMPO,
      max_tempo: Math.max(...spoken.map((s) => s.tempo)),
      max_shift_seconds: Math.max(...spoken.map((s) => s.shift_seconds)),
      overlapping_lines: spoken.filter((s) => s.overlaps_next).length,
    },
  };
}
