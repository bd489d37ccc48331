import { notFound } from '../openapi/common-errors';
import type { ErrorContract, Operation } from '../openapi/operation';
import { uuidString } from '../openapi/json-schema';
import { languageSegmentResponseSchema, languageSegmentsResponseSchema, sourceSegmentResponseSchema, transcriptResponseSchema } from './transcripts.responses';
import { editLanguageSegmentBodySchema, editSourceSegmentBodySchema, noQuerySchema, replaceTranscriptBodySchema } from './transcripts.schema';

// The transcript and segment routes' contract (docs/editing.md#reading-and-editing), from the
// very schemas transcripts.routes.ts validates with.

const TAGS = ['Transcripts'];
const projectId = { project_id: { description: "The project's id (a UUID).", schema: uuidString } };
const locale = { locale: { description: "One of the project's target locales.", schema: { type: 'string' } } };
const segmentId = { segment_id: { description: "The segment's id, as the list returns it.", schema: { type: 'string' } } };
const PROJECT_NOT_FOUND = notFound('project');
const SEGMENT_NOT_FOUND: ErrorContract = { status: 404, codes: ['not_found'], description: 'No such project or segment (or not yours).' };
const PROJECT_BUSY: ErrorContract = {
  status: 409,
  codes: ['project_busy'],
  description:
    'The project is being validated, transcribed or dubbed, or a language is being regenerated or dubbed again from a verified transcript: the transcript can change before the upload and once all of that has finished.',
};

const transcriptExample = {
  data: {
    project_id: '5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15',
    source: 'edited',
    source_audio_url: 'https://dubbing.example.com/v1/files/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15/speech-16k.wav?expires=1767225600&filename=Kitchen.source.wav&signature=3f1c9a',
    segments: [
      { id: 'seg_k3v9x2m1q8r4t6wz', start_seconds: 0.42, end_seconds: 3.1, text: 'Hello everyone and welcome to the kitchen.', speaker_id: 'spk_a1b2c3d4e5f6g7h8', speaker: 'Ana' },
      { id: 'seg_b7d2f9h4j6l8n0qs', start_seconds: 3.4, end_seconds: 6.05, text: 'Today we cook rice with fresh vegetables.', speaker_id: 'spk_q9r8s7t6u5v4w3x2', speaker: 'Ben' },
    ],
  },
};

const languageSegmentsExample = {
  data: {
    locale: 'es_es',
    revision: 2,
    segments: [
      {
        id: 'lseg_p2n8c4d7s1f5g9hj',
        source_segment_id: 'seg_k3v9x2m1q8r4t6wz',
        start_seconds: 0.42,
        end_seconds: 3.1,
        text: 'Hola a todos y bienvenidos a la cocina.',
        speaker_id: 'spk_a1b2c3d4e5f6g7h8',
        voice: 'espeak:es+f3',
        status: 'edited',
        clip_url: 'https://dubbing.example.com/v1/files/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15/languages/es_es/r2/clips/lseg_p2n8c4d7s1f5g9hj.wav?expires=1767225600&signature=9b2e71',
        sync: { tempo: 1.21, shift_seconds: 0, overlaps_next: true },
      },
      {
        id: 'lseg_r5t1v3x7z9b2d4fg',
        source_segment_id: 'seg_b7d2f9h4j6l8n0qs',
        start_seconds: 3.4,
        end_seconds: 6.05,
        text: 'Hoy cocinamos arroz con verduras frescas.',
        speaker_id: 'spk_q9r8s7t6u5v4w3x2',
        voice: 'espeak:es',
        status: 'stale',
        clip_url: 'https://dubbing.example.com/v1/files/projects/5b7c1a8e-3f2d-4c1b-9a6e-2d4f8b0c7e15/languages/es_es/clips/lseg_r5t1v3x7z9b2d4fg.wav?expires=1767225600&signature=c41d08',
        sync: { tempo: 1, shift_seconds: 0.14, overlaps_next: false },
      },
    ],
    sync: { lines: 2, sped_up_lines: 1, sped_up_tempo: 1.15, max_tempo: 1.21, max_shift_seconds: 0.14, overlapping_lines: 1 },
  },
};

export const transcriptsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}/transcript',
    operationId: 'getTranscript',
    summary: 'Get the source transcript',
    description:
      "The segments every language is translated from, in time order, and who wrote them, with a signed link to the source's speech to listen to them. Empty (`source` null) until the source is transcribed or a transcript is supplied.",
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: projectId,
    query: noQuerySchema,
    responses: { 200: { description: 'The transcript.', schema: transcriptResponseSchema, example: transcriptExample } },
    errors: [PROJECT_NOT_FOUND],
  },
  {
    method: 'put',
    path: '/v1/dubbing/projects/{project_id}/transcript',
    operationId: 'replaceTranscript',
    summary: 'Replace the source transcript with your own',
    description:
      'Bring your own script (`vtt`, `srt` or `json`). While the project is `awaiting_upload` it is what the dub is made from and no speech recognition runs; once the project has ended, ' +
      "every language's segments go `stale`, edited ones included, for the next regeneration. Free. A refused file (`invalid_transcript`, the message naming the cue) changes nothing.",
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: projectId,
    body: replaceTranscriptBodySchema,
    bodyExample: {
      format: 'srt',
      content: '1\n00:00:00,420 --> 00:00:03,100\nHello everyone and welcome to the kitchen.\n\n2\n00:00:03,400 --> 00:00:06,050\nToday we cook rice with fresh vegetables.\n',
    },
    responses: {
      200: { description: 'The new transcript (`source: supplied`), as GET returns it.', schema: transcriptResponseSchema, example: { data: { ...transcriptExample.data, source: 'supplied' } } },
    },
    errors: [
      {
        status: 400,
        codes: ['invalid_transcript'],
        description:
          'The file cannot be read, or a cue is out of order, overlaps the one before, has no text, ends after the source, lasts less than 0.2 s or has more text than its time carries (26 characters a second plus 15).',
      },
      PROJECT_NOT_FOUND,
      PROJECT_BUSY,
    ],
  },
  {
    method: 'patch',
    path: '/v1/dubbing/projects/{project_id}/transcript/segments/{segment_id}',
    operationId: 'editTranscriptSegment',
    summary: 'Edit a source segment',
    description:
      "Its text and/or timing. Free: the segment's language lines go `stale` for the next regeneration, except `edited` ones, which keep their words and take the new timing. " +
      "The transcript's `source` becomes `edited`. An edit that changes nothing changes nothing.",
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: { ...projectId, ...segmentId },
    body: editSourceSegmentBodySchema,
    bodyExample: { text: 'Hello everyone, and welcome to my kitchen.' },
    responses: {
      200: {
        description: 'The segment as it is now.',
        schema: sourceSegmentResponseSchema,
        example: {
          data: { id: 'seg_k3v9x2m1q8r4t6wz', start_seconds: 0.42, end_seconds: 3.1, text: 'Hello everyone, and welcome to my kitchen.', speaker_id: 'spk_a1b2c3d4e5f6g7h8', speaker: 'Ana' },
        },
      },
    },
    errors: [
      {
        status: 400,
        codes: ['missing_parameter', 'invalid_parameter'],
        description: 'Nothing to change; blank text; or timing that ends before it starts, overlaps a neighbour, or ends after the source.',
      },
      {
        status: 400,
        codes: ['invalid_transcript'],
        description: 'The segment would have more text than its time carries (26 characters a second plus 15), or timing you set shorter than 0.2 s (`param`: `text`, or the timing field sent).',
      },
      SEGMENT_NOT_FOUND,
      PROJECT_BUSY,
    ],
  },
  {
    method: 'get',
    path: '/v1/dubbing/projects/{project_id}/languages/{locale}/segments',
    operationId: 'listLanguageSegments',
    summary: "Get a language's segments",
    description:
      "One line per source segment (a supplied translation's cues as given), each with its `status`, a signed link to its dubbed clip and its `sync` (how far the published revision sped it up and shifted it), " +
      'the `revision` the published files were rendered from, and the sync report in total (docs/editing.md#sync-report).',
    tags: TAGS,
    auth: 'dubbing:read',
    pathParams: { ...projectId, ...locale },
    query: noQuerySchema,
    responses: { 200: { description: "The language's lines.", schema: languageSegmentsResponseSchema, example: languageSegmentsExample } },
    errors: [{ status: 404, codes: ['not_found'], description: 'No such project or target locale (or not yours).' }],
  },
  {
    method: 'patch',
    path: '/v1/dubbing/projects/{project_id}/languages/{locale}/segments/{segment_id}',
    operationId: 'editLanguageSegment',
    summary: "Edit a language's segment",
    description: 'Your words for one line: it becomes `edited`, which the machine never overwrites; the next regeneration dubs it as written. Free.',
    tags: TAGS,
    auth: 'dubbing:write',
    pathParams: { ...projectId, ...locale, ...segmentId },
    body: editLanguageSegmentBodySchema,
    bodyExample: { text: 'Hola a todos y bienvenidos a mi cocina.' },
    responses: { 200: { description: 'The line as it is now.', schema: languageSegmentResponseSchema, example: { data: languageSegmentsExample.data.segments[0] } } },
    errors: [
      { status: 400, codes: ['invalid_parameter'], description: 'Blank text.' },
      { status: 400, codes: ['invalid_transcript'], description: "More text than the line's time carries (26 characters a second, for at least 0.2 s, plus 15; `param`: `text`)." },
      SEGMENT_NOT_FOUND,
      { status: 409, codes: ['language_busy'], description: 'The language is being dubbed, regenerated or dubbed again from a verified transcript.' },
    ],
  },
];
