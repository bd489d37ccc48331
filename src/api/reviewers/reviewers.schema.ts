// The reviewer routes' requests (docs/editing.md#reviewers). Whether the segments follow each
// other and fit the source is checked by the handler (findCueProblem), so its error names the cue.

import type { Validated } from '../../shared/validated';
import { MAX_CUE_TEXT, MAX_REVIEW_CUES } from '../../shared/transcript-cues';

export { noQuerySchema } from '../transcripts/transcripts.schema';

/** A claim says nothing but who calls (the key): no body, or an empty JSON object. */
export const claimReviewBodySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

const SECONDS = { type: 'number', minimum: 0, maximum: 86_400 } as const;

export const submitReviewBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['segments'],
  properties: {
    segments: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_REVIEW_CUES,
      description: 'The whole corrected transcript, in time order: it replaces the source segments.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['start_seconds', 'end_seconds', 'text'],
        properties: {
          start_seconds: SECONDS,
          end_seconds: SECONDS,
          text: { type: 'string', minLength: 1, maxLength: MAX_CUE_TEXT },
        },
      },
    },
  },
} as const;
export type SubmitReviewBody = Validated<typeof submitReviewBodySchema>;
