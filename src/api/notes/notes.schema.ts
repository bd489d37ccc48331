import type { Validated } from '../../shared/validated';

export const MEETINGS_MAX_LIMIT = 100;
export const MEETINGS_DEFAULT_LIMIT = 20;
export const MEETINGS_MAX_OFFSET = 1_000_000;

export const listMeetingsQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MEETINGS_MAX_LIMIT, default: MEETINGS_DEFAULT_LIMIT },
    offset: { type: 'integer', minimum: 0, maximum: MEETINGS_MAX_OFFSET, default: 0 },
  },
  additionalProperties: false,
} as const;

export type ListMeetingsQuery = Validated<typeof listMeetingsQuerySchema>;

export const getMeetingQuerySchema = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;
