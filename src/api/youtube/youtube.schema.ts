import type { Validated } from '../../shared/validated';

// GET /v1/dubbing/youtube/videos (docs/design.md#youtube). Strict like every query: unknown parameters and
// out-of-range limits are 400s naming the parameter.

export const listVideosQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    channel_id: { type: 'string', minLength: 1, maxLength: 64, description: "A connected channel; the workspace's primary one when omitted." },
    query: { type: 'string', minLength: 1, maxLength: 200, description: 'Searches titles, or an exact video id.' },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
  },
} as const;

export type ListVideosQuery = Validated<typeof listVideosQuerySchema>;
