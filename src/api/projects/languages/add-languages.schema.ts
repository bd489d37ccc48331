// POST /v1/dubbing/projects/{id}/languages (docs/design.md#languages). Which locales the engines serve, and
// whether one is the project's source, is checked against the project in the handler chain.

import { voicesRequestSchema } from '../voices-request.schema';
import type { Validated } from '../../../shared/validated';
import { spendCeilingSchema } from '../spend-ceiling.schema';
import { videoOptionsSchema } from '../video-options.schema';

const LOCALE = { type: 'string', minLength: 1, maxLength: 20 } as const;

export const addLanguagesBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['target_locales', 'max_billable_seconds'],
  properties: {
    target_locales: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: LOCALE },
    // The ceiling for the whole request (billable seconds × new locales). Only compared with
    // the quote, which is what is charged, so any positive 32-bit value will do.
    max_billable_seconds: spendCeilingSchema('The ceiling for the whole request (billable seconds × new locales): a quote above it charges and adds nothing.'),
    voices: { ...voicesRequestSchema, description: `${voicesRequestSchema.description} A per-speaker map names the project's speakers (GET …/speakers).` },
    preview_only: { type: 'boolean', default: true, description: 'True: quote only, change nothing. False: charge and add (needs an Idempotency-Key).' },
    video: videoOptionsSchema,
  },
} as const;

export type AddLanguagesBody = Validated<typeof addLanguagesBodySchema>;
