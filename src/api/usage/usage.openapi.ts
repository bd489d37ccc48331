import type { Operation } from '../openapi/operation';
import { notFound } from '../openapi/common-errors';
import { dataEnvelope, isoTimestamp, strictObject } from '../openapi/json-schema';
import { getUsageQuerySchema } from './usage.schema';

const trio = (unit: string) =>
  strictObject({
    total: { type: 'integer', description: `${unit} the workspace holds (granted minus captured).` },
    reserved: { type: 'integer', description: `${unit} held for work not yet settled.` },
    available: { type: 'integer', description: 'total − reserved.' },
  });

const usageResponse = dataEnvelope(
  strictObject({
    credits_per_second: { type: 'integer' },
    credits: trio('Credits'),
    billable_seconds: trio('Seconds (credits ÷ credits_per_second, rounded down)'),
    as_of: { ...isoTimestamp, description: 'ISO 8601 UTC, with milliseconds.' },
  }),
);

export const usageOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/usage',
    operationId: 'getUsage',
    summary: 'Get workspace usage',
    description: 'Credits the workspace holds, what is reserved, and what is free to spend. Read it before paid work.',
    tags: ['Usage'],
    auth: 'usage:read',
    query: getUsageQuerySchema,
    responses: {
      200: {
        description: "The workspace's credits.",
        schema: usageResponse,
        example: {
          data: {
            credits_per_second: 1,
            credits: { total: 3600, reserved: 240, available: 3360 },
            billable_seconds: { total: 3600, reserved: 240, available: 3360 },
            as_of: '2026-11-24T06:00:00.000Z',
          },
        },
      },
    },
    errors: [notFound('workspace')],
  },
];
