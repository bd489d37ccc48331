// POST /v1/dubbing/projects/{id}/transcript-review (docs/design.md#review).

import type { Validated } from '../../shared/validated';
import { spendCeilingSchema } from '../projects/spend-ceiling.schema';

export const transcriptReviewBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['max_billable_seconds'],
  properties: {
    // Only compared with the quote, which is what is charged.
    max_billable_seconds: spendCeilingSchema('A quote above it submits and charges nothing.'),
    preview_only: { type: 'boolean', default: true, description: 'True: quote only. False: charge and submit (needs an Idempotency-Key).' },
  },
} as const;

export type TranscriptReviewBody = Validated<typeof transcriptReviewBodySchema>;
