// POST /v1/dubbing/projects/{id}/languages/{locale}/retry (docs/lifecycle.md#retry).

import type { Validated } from '../../../shared/validated';
import { spendCeilingSchema } from '../spend-ceiling.schema';

export const retryLanguageBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['max_billable_seconds'],
  properties: {
    max_billable_seconds: spendCeilingSchema('The ceiling for this retry: a quote above it charges and changes nothing.'),
    preview_only: { type: 'boolean', default: true, description: 'True: quote only, change nothing. False: retry the language, charged as quoted (needs an Idempotency-Key).' },
  },
} as const;

export type RetryLanguageBody = Validated<typeof retryLanguageBodySchema>;
