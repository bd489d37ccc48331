import type { LanguageSegment } from '../../db/language-segments';

// Which line each published cue shows (docs/captions.md#qc): a line's cues start inside the span
// its clip was placed at (placed_start_seconds onwards; timing moves a cue's end, never its start),
// and lines never overlap, so a cue is the line placed last at or before its start. Lines not yet
// rendered (no placement) show no cue. Times compare in whole milliseconds, as the files have them.

const ms = (seconds: number) => Math.round(seconds * 1000);

/** The line id of each cue, by cue start; null where no rendered line starts at or before it. */
export function cueLineIds(cueStarts: readonly number[], lines: readonly Pick<LanguageSegment, 'id' | 'placed_start_seconds'>[]): (string | null)[] {
  const placed = lines
    .filter((l): l is typeof l & { placed_start_seconds: number } => l.placed_start_seconds !== null)
    .map((l) => ({ id: l.id, start: ms(l.placed_start_seconds) }))
    .sort((a, b) => a.start - b.start);
  return cueStarts.map((start) => {
    let found: string | null = null;
    // A cue's start is its line's, rounded once: a millisecond either way is the same instant.
    for (const line of placed) if (line.start <= ms(start) + 1) found = line.id;
    return found;
  });
}
