// The sync report in the table (docs/editing.md#sync-report): a line the published revision sped
// up past the threshold, or that ran into the next line (which then starts late), gets a small
// badge, its title the figures, as GET …/languages/{locale}/segments reports them per line.

/** The API's threshold (`sync.sped_up_tempo`); this only until a language has a report. */
const DEFAULT_SPED_UP_TEMPO = 1.15;

const fixed = (value, digits) => Number(value).toFixed(digits);

/** `{ text, title, flags }` for a line to mark, null for one that is fine or was never rendered. */
export function syncFlag(sync, threshold = DEFAULT_SPED_UP_TEMPO) {
  if (!sync) return null;
  const fast = sync.tempo > threshold;
  if (!fast && !sync.overlaps_next) return null;
  const flags = [...(fast ? ['fast'] : []), ...(sync.overlaps_next ? ['overlap'] : [])];
  const words = [
    `played at ${fixed(sync.tempo, 2)}×${fast ? ` (over ${fixed(threshold, 2)}×)` : ''}`,
    `starts ${fixed(sync.shift_seconds, 2)} s after its source`,
    ...(sync.overlaps_next ? ['runs into the next line, which starts late'] : []),
  ];
  return {
    flags,
    text: fast ? `${fixed(sync.tempo, 2)}×` : 'overlap',
    title: `Sync: ${words.join('; ')}.`,
  };
}
