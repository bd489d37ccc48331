import { SPED_UP_TEMPO } from '../../shared/sync-report';
import { nullable, strictObject } from './json-schema';

// The sync report's public shapes (src/shared/sync-report.ts, docs/editing.md#sync-report),
// written once: a language's segments carry them per line and in total, the project view in total.

const tempo = { type: 'number', minimum: 1, description: 'The speed-up the clip played at: 1 as synthesized, at most 1.5 (docs/editing.md#sync-report).' };
const shift = { type: 'number', minimum: 0, description: 'How much later than its source sentence the line starts: the line before it ran long.' };

export const lineSyncSchema = nullable({
  ...strictObject({
    tempo,
    shift_seconds: shift,
    overlaps_next: {
      type: 'boolean',
      description: "It was still speaking when the next spoken line's source sentence began (its placed end passes that line's `start_seconds`), so that line starts late.",
    },
  }),
  type: 'object',
  description: 'How the published revision fitted the line to its source timing (docs/editing.md#sync-report); null for a line it plays no clip for.',
});

const count = { type: 'integer', minimum: 0 };

export const syncTotalsSchema = nullable({
  ...strictObject({
    lines: { ...count, description: 'Lines the published revision plays a clip for.' },
    sped_up_lines: { ...count, description: 'Lines played faster than `sped_up_tempo`.' },
    sped_up_tempo: { type: 'number', enum: [SPED_UP_TEMPO], description: 'The threshold a line is flagged past: a listener starts to hear the hurry.' },
    max_tempo: { ...tempo, description: 'The fastest line.' },
    max_shift_seconds: { ...shift, description: 'The latest start, against its source sentence.' },
    overlapping_lines: { ...count, description: 'Lines that ran into the next line (`overlaps_next`).' },
  }),
  type: 'object',
  description: "The language's sync report in total, as its published revision plays (docs/editing.md#sync-report); null until a line is rendered.",
});
