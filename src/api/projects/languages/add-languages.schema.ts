// POST /v1/dubbing/projects/{id}/languages (docs/design.md#languages). Which locales the engines serve, and
// whether one is the project's source, is checked against the project in the handler chain.

const LOCALE = { type: 'string', minLength: 1, maxLength: 20 } as const;

export const addLanguagesBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['target_locales', 'max_billable_seconds'],
  properties: {
    target_locales: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: LOCALE },
    // The ceiling for the whole request (billable seconds × new locales): at most a day of
    // source for each of 20 locales, the most a create allows.
    max_billable_seconds: { type: 'integer', minimum: 1, maximum: 86_400 * 20 },
    preview_only: { type: 'boolean', default: true, description: 'True: quote only, change nothing. False: charge and add (needs an Idempotency-Key).' },
  },
} as const;

export interface AddLanguagesBody {
  target_locales: string[];
  max_billable_seconds: number;
  preview_only: boolean;
}
