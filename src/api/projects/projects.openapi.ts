import { addLanguagesBodySchema } from './languages/add-languages.schema';
import { transcriptReviewBodySchema } from '../reviews/transcript-review.schema';
import { notFound, WORKFLOW_SERVICE_ERRORS } from '../openapi/common-errors';
import type { Operation } from '../openapi/operation';
import { uuidString } from '../openapi/json-schema';
import { completeUploadBodySchema, createProjectBodySchema, downloadQuerySchema, getProjectQuerySchema, listProjectsQuerySchema } from './projects.schema';
import {
  addLanguagesResponseSchema,
  projectListResponseSchema,
  projectResponseSchema,
  transcriptReviewResponseSchema,
  uploadCompletionResponseSchema,
  trackCompletionResponseSchema,
} from './projects.responses';
import {
  additionPreviewExample,
  completedProjectExample,
  createdProjectExample,
  createProjectExample,
  projectListExample,
  reviewPreviewExample,
  uploadCompletedExample,
  trackCompletedExample,
} from './projects.examples';

const TAGS = ['Projects'];
const projectId = { project_id: { description: "The project's id (a UUID).", schema: uuidString } };
const NOT_FOUND = notFound('project');
/** A project's body is revalidated, never reused unasked: its ETag follows view_version (docs/design.md#conditional-get). */
const PROJECT_VIEW_HEADERS = {
  ETag: {
    description: 'A strong validator of this body, to send back in `If-None-Match`. Absent while an upload is open on the s3 storage driver, whose part URLs and progress change without the project.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: '`private, no-cache`: revalidate with `If-None-Match` before reusing a body.', schema: { type: 'string' } },
};

export const projectsOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/dubbing/projects',
    operationId: 'createProject',
    summary: 'Create a dubbing project',
    description:
      'Creates a project from a YouTube URL or an upload and holds `max_billable_seconds × target locales` worth of credits. ' +
      'An upload project answers `awaiting_upload` with a `transfer` block of signed part URLs; a YouTube project starts `validating`. ' +
      'Paid and idempotent: the same Idempotency-Key and body replay the first response byte for byte (header `idempotent-replayed: true`).',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'required',
    body: createProjectBodySchema,
    bodyExample: createProjectExample,
    responses: { 201: { description: 'The project (a replay answers the stored 201).', schema: projectResponseSchema, example: createdProjectExample } },
    errors: [
      { status: 400, codes: ['unsupported_locale'], description: 'A locale the engines cannot serve, or a target equal to the source.' },
      { status: 400, codes: ['unsupported_voice'], description: 'A voice (`voices.<locale>`) no live worker offers for that locale; see GET /v1/dubbing/voices.' },
      {
        status: 400,
        codes: ['invalid_transcript', 'invalid_parameter'],
        description:
          "A `transcript` or `translations` file that cannot be read or whose cues break the rules, one of them being no more text than a cue's time carries (the message names the cue); a translation for a locale that is not a target.",
      },
      { status: 402, codes: ['insufficient_credits'], description: 'Not enough credits for the hold; nothing was created.' },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
  {
    method: 'get',
    path: '/v1/dubbing/projects',
    operationId: 'listProjects',
    summary: 'List projects',
    description: 'Newest first, paginated with an opaque cursor.',
    tags: TAGS,
    auth: 'dubbing:read',
    query: listProjectsQuerySchema,
    responses: { 200: { description: 'A page of projects.', schema: projectListResponseSchema, example: projectListExample } },
    errors: [{ status: 400, codes: ['invalid_cursor'], description: 'A cursor that was not returned by this API for this workspace.' }],
  },
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}',
    operationId: 'getProject',
    summary: 'Get a project',
    description: 'Status, progress, usage, languages and their files. While the upload is open, `transfer` (include_transfer, default true) lists every part URL and which parts arrived.',
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: projectId,
    query: getProjectQuerySchema,
    headers: {
      'If-None-Match': { description: 'The `ETag` of a body you hold: while the project shows the same, the answer is `304` with no body.', schema: { type: 'string' } },
    },
    responses: {
      200: { description: 'The project.', schema: projectResponseSchema, example: completedProjectExample, headers: PROJECT_VIEW_HEADERS },
      304: { description: 'Unchanged: the body whose `ETag` was sent in `If-None-Match` is still what the project shows.', headers: PROJECT_VIEW_HEADERS },
    },
    errors: [NOT_FOUND],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/upload/complete',
    operationId: 'completeUpload',
    summary: 'Complete an upload',
    description: "After every part was PUT to its URL: checks each part's etag and order, then queues source validation. Safe to repeat with the same parts.",
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    body: completeUploadBodySchema,
    bodyExample: { parts: [{ part_number: 1, etag: '9e107d9d372bb6826bd81d3542a419d6' }] },
    responses: { 200: { description: 'The upload is complete; the source is being validated.', schema: uploadCompletionResponseSchema, example: uploadCompletedExample } },
    errors: [
      { status: 400, codes: ['invalid_request', 'upload_incomplete'], description: 'Not an upload project; or parts missing, out of order, or with wrong etags.' },
      NOT_FOUND,
      { status: 409, codes: ['upload_already_completed', 'upload_expired', 'background_track_incomplete'], description: '`background_track_incomplete`: complete the background track first.' },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/background_track/complete',
    operationId: 'completeBackgroundTrack',
    summary: 'Complete the background track upload',
    description:
      'After every part of `transfer.background_track` was PUT to its URL: checks the parts as upload/complete does and completes the track. Do it before upload/complete (docs/background.md#your-own-music-and-effects-track). Safe to repeat with the same parts.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    body: completeUploadBodySchema,
    bodyExample: { parts: [{ part_number: 1, etag: '9e107d9d372bb6826bd81d3542a419d6' }] },
    responses: { 200: { description: 'The track is complete; the project still awaits its source.', schema: trackCompletionResponseSchema, example: trackCompletedExample } },
    errors: [
      { status: 400, codes: ['invalid_request', 'upload_incomplete'], description: 'The project has no background track; or parts missing, out of order, or with wrong etags.' },
      NOT_FOUND,
      { status: 409, codes: ['upload_already_completed', 'upload_expired'] },
    ],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/languages',
    operationId: 'addLanguages',
    summary: 'Quote or add target languages',
    description:
      '`preview_only` (default true) quotes and changes nothing. `preview_only: false` charges the new locales and starts them; it needs an Idempotency-Key. ' +
      'Over `max_billable_seconds`: 200 with `within_limit: false`, nothing charged or added.',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'optional',
    pathParams: projectId,
    body: addLanguagesBodySchema,
    bodyExample: { target_locales: ['gl_es'], max_billable_seconds: 120, preview_only: true },
    responses: { 200: { description: 'The quote; with `preview_only: false`, also the project.', schema: addLanguagesResponseSchema, example: additionPreviewExample } },
    errors: [
      { status: 400, codes: ['unsupported_locale', 'unsupported_voice', 'invalid_parameter'] },
      { status: 402, codes: ['insufficient_credits'] },
      NOT_FOUND,
      { status: 409, codes: ['project_not_ready', 'project_not_billable'] },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
  {
    method: 'post',
    path: '/v1/dubbing/projects/{project_id}/transcript-review',
    operationId: 'requestTranscriptReview',
    summary: 'Quote or request a transcript review',
    description:
      'A human review of the English source transcript, billed by whole minutes. `preview_only` (default true) quotes; `preview_only: false` charges and submits, and needs an Idempotency-Key.',
    tags: TAGS,
    auth: 'dubbing:write',
    idempotency: 'optional',
    pathParams: projectId,
    body: transcriptReviewBodySchema,
    bodyExample: { max_billable_seconds: 120, preview_only: true },
    responses: { 200: { description: 'The quote; with `preview_only: false`, also the project.', schema: transcriptReviewResponseSchema, example: reviewPreviewExample } },
    errors: [
      { status: 402, codes: ['insufficient_credits'] },
      NOT_FOUND,
      { status: 409, codes: ['transcript_review_unavailable', 'project_not_ready', 'project_not_billable'] },
      ...WORKFLOW_SERVICE_ERRORS,
    ],
  },
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}/download',
    operationId: 'downloadFile',
    summary: 'Download a completed file',
    description:
      'Audio (`mp3` default, `wav`), thumbnails and the dubbed video (`mp4`, docs/video.md) redirect to a short-lived signed storage URL, which serves `Range` requests (206); subtitles (`vtt` default, `srt`, `ttml`: IMSC 1.1 Text Profile, docs/captions.md#ttml) come back in the body.',
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: projectId,
    query: downloadQuerySchema,
    responses: {
      200: { description: 'Subtitles, inline.', contentType: ['text/vtt', 'application/x-subrip', 'application/ttml+xml'] },
      302: {
        description: 'Audio, thumbnail or video: follow `Location` to a short-lived signed URL.',
        headers: { Location: { description: 'The signed storage URL.', schema: { type: 'string', format: 'uri' } } },
      },
    },
    errors: [
      { status: 400, codes: ['invalid_parameter'], description: 'A format that does not suit the type, or a locale the project does not have.' },
      { ...NOT_FOUND, description: 'No such project, `type=video` for a completed language whose source has no video stream, or `format=ttml` for captions published before TTML was offered.' },
      { status: 409, codes: ['language_not_completed'] },
    ],
  },
];
