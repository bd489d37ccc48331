import { dataEnvelope, isoTimestamp, nullable, strictObject, uuidString } from '../openapi/json-schema';
import { sourceSegmentSchema } from '../transcripts/transcripts.responses';

// Response bodies of the reviewer routes (docs/editing.md#reviewers), written once for the
// OpenAPI document and the contract tests.

const reviewFields = {
  project_id: uuidString,
  project_name: { type: 'string' },
  status: { type: 'string', enum: ['requested', 'in_review'], description: '`requested`: waiting for a reviewer; `in_review`: claimed.' },
  reviewer: nullable({ type: 'string', description: "Who claimed it (the reviewer key's name, or the name given at the console); null until claimed." }),
  claimed_by_you: { type: 'boolean', description: 'True when the calling key holds the review: only it can submit.' },
  requested_at: isoTimestamp,
  deadline_at: { ...isoTimestamp, description: 'Not verified by then, the review expires and the customer is refunded.' },
  source_duration_seconds: nullable({ type: 'number', description: "The source's length; null until it is measured." }),
};

export const reviewQueueResponseSchema = dataEnvelope({ type: 'array', items: strictObject(reviewFields), description: 'Open reviews across all workspaces, oldest request first.' });

export const openReviewResponseSchema = dataEnvelope(
  strictObject({
    ...reviewFields,
    source_audio_url: nullable({
      type: 'string',
      format: 'uri',
      description:
        "A short-lived signed URL (`SIGNED_URL_TTL_SECONDS`) of the source's speech (16 kHz mono WAV), answering Range requests; null until the speech is extracted. GET again for a fresh one.",
    }),
    segments: { type: 'array', items: sourceSegmentSchema, description: 'The transcript to correct, in time order; empty until the source is transcribed.' },
  }),
);

export const submittedReviewResponseSchema = dataEnvelope(
  strictObject({
    project_id: uuidString,
    status: { type: 'string', enum: ['verified'] },
    reviewer: { type: 'string' },
    verified_at: isoTimestamp,
  }),
);
