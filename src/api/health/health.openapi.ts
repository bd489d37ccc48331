import type { Operation } from '../openapi/operation';
import { dataEnvelope, strictObject } from '../openapi/json-schema';

const readiness = dataEnvelope(
  strictObject({
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    checks: strictObject({ postgres: { type: 'boolean' }, temporal: { type: 'boolean' } }),
    workers: strictObject({
      live: { type: 'integer', minimum: 0, description: 'Workers whose engines are published now (each serves locales).' },
      locales: { type: 'integer', minimum: 0, description: 'Locales those live workers serve together; 0 with no live worker.' },
    }),
  }),
);

export const healthOperations: Operation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    summary: 'Liveness',
    description: 'The process is up. No authentication.',
    tags: ['Health'],
    auth: 'public',
    responses: { 200: { description: 'Alive.', schema: dataEnvelope(strictObject({ status: { const: 'ok' } })), example: { data: { status: 'ok' } } } },
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'PostgreSQL and Temporal answer within 2 s. `workers` says how many live workers serve how many locales; with none the API is still ready (it serves reads, and creates wait for a worker), so nothing is dubbed until `workers.live` is above 0. No authentication; the reasons for a failure stay in the log.',
    tags: ['Health'],
    auth: 'public',
    responses: {
      200: { description: 'Ready to serve.', schema: readiness },
      503: { description: 'A dependency does not answer.', schema: readiness },
    },
    errors: [],
  },
];
