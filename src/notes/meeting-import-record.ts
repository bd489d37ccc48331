import type { Validated } from '../shared/validated';

// A meeting as the notes product exports it and the console imports it (src/cli/import-meetings.ts).
// Element shapes of the meeting's arrays. The API returns what was imported, so the import
// validates against these same schemas and a stored meeting always has this shape.

/** Canonical UUID text (ajv's "uuid" format also takes a urn:uuid: prefix, which Postgres refuses). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const uuid = { type: 'string', pattern: UUID_PATTERN } as const;

// Unix seconds up to 9999-12-31, so every accepted value is a valid date.
const unixSeconds = { type: 'integer', minimum: 0, maximum: 253_402_300_799 } as const;
const nullableUnixSeconds = { ...unixSeconds, nullable: true } as const;

export const meetingTagSchema = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, name: { type: 'string', minLength: 1, maxLength: 200 } },
  required: ['id', 'name'],
  additionalProperties: false,
} as const;

export const transcriptSegmentSchema = {
  type: 'object',
  properties: {
    speaker: { type: 'string', maxLength: 200 },
    start_seconds: { type: 'number', minimum: 0 },
    end_seconds: { type: 'number', minimum: 0 },
    text: { type: 'string' },
  },
  required: ['speaker', 'start_seconds', 'end_seconds', 'text'],
  additionalProperties: false,
} as const;

export const meetingNoteSchema = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 }, text: { type: 'string' }, created_at: unixSeconds },
  required: ['id', 'text', 'created_at'],
  additionalProperties: false,
} as const;

export const meetingImportRecordSchema = {
  type: 'object',
  properties: {
    id: uuid,
    name: { type: 'string', minLength: 1, maxLength: 500 },
    started_at: unixSeconds,
    ended_at: unixSeconds,
    duration_seconds: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
    updated_at: unixSeconds,
    tags: { type: 'array', items: meetingTagSchema, default: [] },
    sync_state: { type: 'string', enum: ['synced', 'local_only'], default: 'synced' },
    hidden: { type: 'boolean', default: false },
    deleted_at: { ...nullableUnixSeconds, default: null },
    shared_with: { type: 'array', items: uuid, uniqueItems: true, default: [] },
    transcript_text: { type: 'string', default: '' },
    transcript_segments: { type: 'array', items: transcriptSegmentSchema, default: [] },
    notes: { type: 'array', items: meetingNoteSchema, default: [] },
    summary: { type: 'string', nullable: true, default: null },
    summary_generated_at: { ...nullableUnixSeconds, default: null },
  },
  required: ['id', 'name', 'started_at', 'ended_at', 'duration_seconds', 'updated_at'],
  additionalProperties: false,
} as const;

/**
 * One meeting of an import file, as the notes product exports it (timestamps in Unix seconds),
 * after validation: every defaulted field is present. `shared_with` holds the user ids the owner
 * shared the meeting with.
 */
export type MeetingImportRecord = Validated<typeof meetingImportRecordSchema>;
