// JSON schemas of the transcript and segment routes (docs/editing.md). Which timing fits between
// a segment's neighbours and inside the source, and that text is not blank, is checked by the
// handlers, so their errors can say why.

import type { Validated } from '../../shared/validated';
import { MAX_CUE_TEXT } from '../../shared/transcript-cues';
import { transcriptFileSchema } from './transcript-file.schema';

/** These routes read no query parameters; any is refused (docs/design.md#requests). */
export const noQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

export const replaceTranscriptBodySchema = transcriptFileSchema;
export type ReplaceTranscriptBody = Validated<typeof replaceTranscriptBodySchema>;

const SEGMENT_TEXT = { type: 'string', minLength: 1, maxLength: MAX_CUE_TEXT } as const;
const SECONDS = { type: 'number', minimum: 0, maximum: 86_400 } as const;

export const editSourceSegmentBodySchema = {
  type: 'object',
  additionalProperties: false,
  description: 'At least one of the four; what is not sent stays as it is.',
  properties: {
    speaker_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "Who speaks it: a speaker of this project (GET …/speakers). Its lines are then spoken with that speaker's voice at the next regeneration, which bills only them.",
    },
    text: { ...SEGMENT_TEXT, description: "The segment's new words." },
    start_seconds: { ...SECONDS, description: 'When it starts: no earlier than the previous segment ends.' },
    end_seconds: { ...SECONDS, description: 'When it ends: after it starts, no later than the next segment starts, and within the source.' },
  },
} as const;
export type EditSourceSegmentBody = Validated<typeof editSourceSegmentBodySchema>;

export const editLanguageSegmentBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: { ...SEGMENT_TEXT, description: "The line's words, taken as given: the line becomes `edited`, which the machine never overwrites." },
  },
} as const;
export type EditLanguageSegmentBody = Validated<typeof editLanguageSegmentBodySchema>;
