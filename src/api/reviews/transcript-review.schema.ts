// POST /v1/dubbing/projects/{id}/transcript-review (docs/design.md#review).

export const transcriptReviewBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['max_billable_seconds'],
  properties: {
    max_billable_seconds: { type: 'integer', minimum: 1, maximum: 86_400 },
    preview_only: { type: 'boolean', default: true, description: 'True: quote only. False: charge and submit (needs an Idempotency-Key).' },
  },
} as const;

export interface TranscriptReviewBody {
  max_billable_seconds: number;
  preview_only: boolean;
}
