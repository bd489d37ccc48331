import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { dataEnvelope, strictObject } from '../openapi/json-schema';
import { meetingNoteSchema, meetingTagSchema, transcriptSegmentSchema } from '../../notes/meeting-import-record';
import { getMeetingQuerySchema, listMeetingsQuerySchema } from './notes.schema';

// The element schemas are the ones the meeting import validates with: what is stored is what is served.

const unixSeconds = { type: 'integer', description: 'Unix seconds.' };

const metadataProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  started_at: unixSeconds,
  ended_at: unixSeconds,
  duration_seconds: { type: 'integer' },
  tags: { type: 'array', items: meetingTagSchema },
  updated_at: unixSeconds,
};

const meetingDetailSchema = strictObject({
  ...metadataProperties,
  transcript_text: { type: 'string' },
  transcript_segments: { type: 'array', items: transcriptSegmentSchema },
  notes: { type: 'array', items: meetingNoteSchema },
  summary: { type: ['string', 'null'] },
  summary_generated_at: { type: ['integer', 'null'], description: 'Unix seconds; null without a summary.' },
});

const meetingsPage = strictObject({
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  has_more: { type: 'boolean' },
  next_offset: { type: ['integer', 'null'], description: 'Pass as `offset` while has_more is true; null at the end.' },
});

const NOTES_ACCESS = {
  status: 403,
  codes: ['permission_denied' as const],
  description: 'The key lacks notes:read, or acts for no single user (meetings are read with a personal key or a key of a personal workspace).',
};

export const notesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/notes/meetings',
    operationId: 'listMeetings',
    summary: 'List meetings',
    description: "The caller's synced meetings, metadata only, newest `started_at` first (id breaks ties).",
    tags: ['Meeting notes'],
    auth: 'notes:read',
    query: listMeetingsQuerySchema,
    responses: { 200: { description: 'A page of meetings.', schema: dataEnvelope({ type: 'array', items: strictObject(metadataProperties) }, { page: meetingsPage }) } },
    errors: [NOTES_ACCESS],
  },
  {
    method: 'get',
    path: '/v1/notes/meetings/{meeting_id}',
    operationId: 'getMeeting',
    summary: 'Get a meeting',
    description: "The saved meeting with its transcript, notes and summary when available. Another user's meeting, even one shared with the caller, is a 404.",
    tags: ['Meeting notes'],
    auth: 'notes:read',
    pathParams: { meeting_id: { description: "The meeting's id, from the list.", schema: { type: 'string' } } },
    query: getMeetingQuerySchema,
    responses: { 200: { description: 'The meeting.', schema: dataEnvelope(meetingDetailSchema) } },
    errors: [NOTES_ACCESS, notFound('meeting')],
  },
];
