import { placeInTimeline, type SlotClip } from '../../../src/shared/line-placement';
import { SPED_UP_TEMPO, syncReport, type SyncLine } from '../../../src/shared/sync-report';

// The sync report (docs/editing.md#sync-report) read from placements as the render makes them.

/** Lines placed by the render's own rules (src/shared/line-placement.ts). */
function placedLines(slots: SlotClip[]): SyncLine[] {
  return placeInTimeline(slots).map((p, i) => ({ start_seconds: slots[i]!.startSeconds, placed_start_seconds: p.startSeconds, placed_end_seconds: p.endSeconds, tempo: p.tempo }));
}

describe('syncReport', () => {
  it('reports a dub that fits its slots as untouched', () => {
    const report = syncReport(
      placedLines([
        { startSeconds: 0, endSeconds: 2, clipSeconds: 1.5 },
        { startSeconds: 3, endSeconds: 5, clipSeconds: 2 },
      ]),
    );
    expect(report.lines).toEqual([
      { tempo: 1, shift_seconds: 0, overlaps_next: false },
      { tempo: 1, shift_seconds: 0, overlaps_next: false },
    ]);
    expect(report.totals).toEqual({ lines: 2, sped_up_lines: 0, sped_up_tempo: SPED_UP_TEMPO, max_tempo: 1, max_shift_seconds: 0, overlapping_lines: 0 });
  });

  it('flags a line sped up past the threshold, one that runs into the next and the shift it causes', () => {
    // Line 0: 2.6 s of speech for a 2 s slot: capped at 1.3×, it ends at 2 s; fine.
    // Line 1: 3 s for a 1 s slot right before line 2: 1.3× ends at 4.308 s, past line 2's start (3.5 s).
    // Line 2 starts when line 1 ends: shifted by 0.808 s.
    const report = syncReport(
      placedLines([
        { startSeconds: 0, endSeconds: 2, clipSeconds: 2.6 },
        { startSeconds: 2, endSeconds: 3, clipSeconds: 3 },
        { startSeconds: 3.5, endSeconds: 6, clipSeconds: 1 },
      ]),
    );
    expect(report.lines[0]).toEqual({ tempo: 1.3, shift_seconds: 0, overlaps_next: false });
    expect(report.lines[1]).toEqual({ tempo: 1.3, shift_seconds: 0, overlaps_next: true });
    expect(report.lines[2]).toEqual({ tempo: 1, shift_seconds: 0.808, overlaps_next: false });
    expect(report.totals).toEqual({ lines: 3, sped_up_lines: 2, sped_up_tempo: SPED_UP_TEMPO, max_tempo: 1.3, max_shift_seconds: 0.808, overlapping_lines: 1 });
  });

  it('counts a tempo of exactly the threshold as not sped up beyond it', () => {
    const report = syncReport([{ start_seconds: 0, placed_start_seconds: 0, placed_end_seconds: 1, tempo: SPED_UP_TEMPO }]);
    expect(report.totals?.sped_up_lines).toBe(0);
  });

  it('skips silent and unrendered lines: null for them, and they push nothing', () => {
    const report = syncReport([
      { start_seconds: 0, placed_start_seconds: 0, placed_end_seconds: 2.5, tempo: 1 },
      // Never rendered (added since the revision): its slot starts under line 0's speech, but nothing was pushed.
      { start_seconds: 2, placed_start_seconds: null, placed_end_seconds: null, tempo: null },
      { start_seconds: 3, placed_start_seconds: 3, placed_end_seconds: 4, tempo: 1 },
    ]);
    expect(report.lines).toEqual([{ tempo: 1, shift_seconds: 0, overlaps_next: false }, null, { tempo: 1, shift_seconds: 0, overlaps_next: false }]);
    expect(report.totals?.lines).toBe(2);
  });

  it('has no totals before anything is rendered', () => {
    expect(syncReport([])).toEqual({ lines: [], totals: null });
    expect(syncReport([{ start_seconds: 0, placed_start_seconds: null, placed_end_seconds: null, tempo: null }]).totals).toBeNull();
  });

  it('never says the last line ran into a next one', () => {
    const report = syncReport([{ start_seconds: 0, placed_start_seconds: 0, placed_end_seconds: 9, tempo: 1.5 }]);
    expect(report.lines[0]?.overlaps_next).toBe(false);
  });
});
