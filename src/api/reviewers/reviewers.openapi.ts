import type { ErrorContract, Operation } from '../openapi/operation';
import { uuidString } from '../openapi/json-schema';
import { openReviewResponseSchema, reviewQueueResponseSchema, submittedReviewResponseSchema } from './reviewers.responses';
import { claimReviewBodySchema, noQuerySchema, submitReviewBodySchema } from './reviewers.schema';

// The reviewer routes' contract (docs/editing.md#reviewers), from the schemas reviewers.routes.ts
// validates with.

const TAGS = ['Reviews'];
const projectId = { project_id: { description: "The reviewed project's id (a UUID).", schema: uuidString } };
const REVIEW_NOT_FOUND: ErrorContract = { status: 404, codes: ['not_found'], description: 'No open review for this project (none requested, already verified or expired, or no such project).' };
const CLAIMED_BY_ANOTHER: ErrorContract = {
  status: 409,
  codes: ['review_claimed_by_another', 'review_step_refused'],
  description: 'Another reviewer holds the review, or the review refused the step (its deadline has passed).',
};

const review = {
  project_id: '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15',
  project_name: 'Kitchen episode 12',
  status: 'in_review',
  reviewer: 'Ada Reviewer',
  claimed_by_you: true,
  requested_at: '2026-11-27T09:12:40.000Z',
  deadline_at: '2026-11-29T09:12:40.000Z',
  source_duration_seconds: 6.4,
};

export const reviewersOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/reviews',
    operationId: 'listReviews',
    summary: 'The review queue (reviewers)',
    description: "Open transcript reviews of every workspace, oldest request first. For the service's reviewer keys only: no workspace key can call it, and a reviewer key can call nothing else.",
    tags: TAGS,
    auth: 'reviews:write',
    query: noQuerySchema,
    responses: { 200: { description: 'The queue.', schema: reviewQueueResponseSchema, example: { data: [{ ...review, status: 'requested', reviewer: null, claimed_by_you: false }] } } },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/reviews/{project_id}',
    operationId: 'getReview',
    summary: 'Open a review (reviewers)',
    description: "The review with the transcript to correct and a signed link to the source's speech, to listen to each segment from its `start_seconds`.",
    tags: TAGS,
    auth: 'reviews:write',
    pathParams: projectId,
    query: noQuerySchema,
    responses: {
      200: {
        description: 'The review.',
        schema: openReviewResponseSchema,
        example: {
          data: {
            ...review,
            source_audio_url: 'https://dubbing.example.com/v1/files/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15/speech-16k.wav?expires=1767225600&signature=3f1c9a',
            segments: [{ id: 'seg_k3v9x2m1q8r4t6wz', start_seconds: 0.42, end_seconds: 3.1, text: 'Hello everyone and welcome to the kitchen.', speaker_id: 'spk_a1b2c3d4e5f6g7h8', speaker: null }],
          },
        },
      },
    },
    errors: [REVIEW_NOT_FOUND],
  },
  {
    method: 'post',
    path: '/v1/reviews/{project_id}/claim',
    operationId: 'claimReview',
    summary: 'Claim a review (reviewers)',
    description: "Takes a `requested` review (→ `in_review`), held by the calling key: only it can submit. Claiming one's own review again answers the same.",
    tags: TAGS,
    auth: 'reviews:write',
    pathParams: projectId,
    query: noQuerySchema,
    body: claimReviewBodySchema,
    bodyOptional: true,
    responses: { 200: { description: 'The review, now held by the caller.', schema: openReviewResponseSchema } },
    errors: [REVIEW_NOT_FOUND, CLAIMED_BY_ANOTHER],
  },
  {
    method: 'post',
    path: '/v1/reviews/{project_id}/submit',
    operationId: 'submitReview',
    summary: 'Submit the corrected transcript (reviewers)',
    description:
      "The whole corrected transcript, by the reviewer who claimed the review. It becomes the project's transcript (`source: verified`), every language's lines go `stale`, and the completed languages are dubbed again from it at no charge. " +
      'The review then leaves the queue and answers 404 to reviewers.',
    tags: TAGS,
    auth: 'reviews:write',
    pathParams: projectId,
    body: submitReviewBodySchema,
    bodyExample: { segments: [{ start_seconds: 0.42, end_seconds: 3.1, text: 'Hello everyone, and welcome to the kitchen.' }] },
    responses: {
      200: {
        description: 'Verified.',
        schema: submittedReviewResponseSchema,
        example: { data: { project_id: review.project_id, status: 'verified', reviewer: 'Ada Reviewer', verified_at: '2026-11-27T10:02:11.000Z' } },
      },
    },
    errors: [
      {
        status: 400,
        codes: ['invalid_transcript'],
        description:
          'A segment is out of order, overlaps the one before, has no text, ends after the source, or (unless the transcript has it as sent) lasts less than 0.2 s or has more text than its time carries (`param`: `segments`).',
      },
      REVIEW_NOT_FOUND,
      {
        status: 409,
        codes: ['review_not_claimed', 'review_claimed_by_another', 'review_step_refused'],
        description: 'Not claimed yet, claimed by another reviewer, or refused by the review (its deadline has passed).',
      },
    ],
  },
];
