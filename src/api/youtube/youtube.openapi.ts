import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { dataEnvelope, isoTimestamp, localeString, strictObject, uuidString } from '../openapi/json-schema';
import { listVideosQuerySchema } from './youtube.schema';

const videoSchema = strictObject(
  {
    youtube_video_id: { type: 'string' },
    title: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    duration_seconds: { type: ['integer', 'null'] },
    published_at: isoTimestamp,
    availability: { type: 'string', enum: ['available', 'private', 'unavailable', 'live'] },
    matching_project: strictObject({
      project_id: uuidString,
      state: { type: 'string', enum: ['pending', 'verified', 'failed'], description: '`verified`: its source was fetched and validated; `failed`: the source could not be used.' },
      target_locales: { type: 'array', items: localeString },
    }),
  },
  ['matching_project'],
);

const videosResponse = dataEnvelope(
  strictObject({
    connection_required: { type: 'boolean', description: 'True when the workspace has no connected channel (then `channel` is null and `items` empty).' },
    channel: { oneOf: [{ type: 'null' }, strictObject({ channel_id: { type: 'string' }, title: { type: 'string' } })] },
    items: { type: 'array', items: videoSchema },
  }),
);

export const youtubeOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/dubbing/youtube/videos',
    operationId: 'listYoutubeVideos',
    summary: 'List videos of a connected channel',
    description: "Served from the workspace's mirror of its channel. A video that already has a project of this workspace carries `matching_project`.",
    tags: ['YouTube'],
    auth: 'dubbing:read',
    query: listVideosQuerySchema,
    responses: {
      200: {
        description: 'Recent or matching videos.',
        schema: videosResponse,
        headers: {
          'YouTube-Lookup': {
            description:
              "Only when `query` is an exact video id the mirror lacks: `found` or `not_found` after a live Data API lookup; `remembered_miss` (looked up in vain lately) or `budget_exhausted` (the workspace's live lookups for this hour are spent) when none was made and the mirror answered.",
            schema: { type: 'string', enum: ['found', 'not_found', 'remembered_miss', 'budget_exhausted'] },
          },
        },
      },
    },
    errors: [notFound('channel')],
  },
];
