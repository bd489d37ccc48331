// POST /v1/dubbing/projects/{id}/languages/{locale}/regenerate (docs/editing.md#regenerate).

import type { Validated } from '../../shared/validated';
import { spendCeilingSchema } from '../projects/spend-ceiling.schema';

export const regenerateBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['max_billable_seconds'],
  properties: {
    // Only compared with the quote, which is what is charged.
    max_billable_seconds: spendCeilingSchema('The ceiling for this regeneration: a quote above it charges and changes nothing.'),
    preview_only: { type: 'boolean', default: true, description: 'True: quote only, change nothing. False: charge and regenerate (needs an Idempotency-Key).' },
  },
} as const;

export type RegenerateBody = Validated<typeof regenerateBodySchema>;
