import { MAX_RANGE_END_SECONDS } from '../../shared/source-range';

// The `range` option of a create (docs/previews.md): dub only this stretch of the source. Its
// order and length are checked by the handler (src/shared/source-range.ts), which names the field.

export const rangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['start_seconds', 'end_seconds'],
  description:
    "A preview: dub only this stretch of the source, in the source's seconds (end after start, at least 1 s). The captions, audio, video and timings cover just that stretch, counted from its start, and it is quoted and charged for its own seconds. Its end must lie within the source (else the project fails `invalid_range`, nothing charged). To dub the whole video later, create a new project of the same source without `range`.",
  properties: {
    start_seconds: { type: 'number', minimum: 0, maximum: MAX_RANGE_END_SECONDS },
    end_seconds: { type: 'number', minimum: 0, maximum: MAX_RANGE_END_SECONDS },
  },
} as const;
