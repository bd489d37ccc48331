// Timed-text QC in the table (docs/captions.md#qc): a line whose published captions break a rule
// of the project's preset gets a small badge naming the rules, its title the details, cue by cue,
// as GET …/languages/{locale}/qc reports them.

const RULE_WORDS = {
  line_length: 'line length',
  line_count: 'lines',
  reading_speed: 'reading speed',
  min_duration: 'too short',
  max_duration: 'too long',
  min_gap: 'gap',
};

const seconds = (value) =>
  `${Number(value)
    .toFixed(3)
    .replace(/\.?0+$/, '')} s`;

/** One breach in words: `reading speed 21.8 > 17 characters a second`. */
function breachWords({ rule, value, limit }) {
  switch (rule) {
    case 'line_length':
      return `line length ${value} > ${limit} characters`;
    case 'line_count':
      return `${value} lines > ${limit}`;
    case 'reading_speed':
      return `reading speed ${value} > ${limit} characters a second`;
    case 'min_duration':
      return `on screen ${seconds(value)} < ${seconds(limit)}`;
    case 'max_duration':
      return `on screen ${seconds(value)} > ${seconds(limit)}`;
    case 'min_gap':
      return `gap to the next cue ${seconds(value)} < ${seconds(limit)}`;
    default:
      return `${rule} ${value} (limit ${limit})`;
  }
}

/** Line id → `{ rules, title }` for the lines whose cues break a rule; none for a report of null. */
export function captionBreachesByLine(report) {
  const byLine = new Map();
  for (const cue of report?.cues ?? []) {
    if (!cue.line_id || cue.breaches.length === 0) continue;
    const entry = byLine.get(cue.line_id) ?? { rules: new Set(), details: [] };
    for (const breach of cue.breaches) entry.rules.add(breach.rule);
    entry.details.push(`Cue ${cue.index} (${seconds(cue.start)}–${seconds(cue.end)}): ${cue.breaches.map(breachWords).join('; ')}`);
    byLine.set(cue.line_id, entry);
  }
  return new Map(
    [...byLine].map(([lineId, { rules, details }]) => [
      lineId,
      {
        rules: [...rules],
        text: `QC: ${[...rules].map((rule) => RULE_WORDS[rule] ?? rule).join(', ')}`,
        title: `Timed-text QC (${report.preset}): ${details.join('. ')}.`,
      },
    ]),
  );
}
