import type { Validated } from '../../shared/validated';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhook-contracts';

// JSON schemas of the webhook endpoints (requests and responses). The url's target (scheme,
// literal address, local name) is checked in the handler, with the same rules as the console.

const UUID = { type: 'string', format: 'uuid' } as const;
const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
const EVENT_TYPE = { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] } as const;
const nullable = <T extends object>(schema: T) => ({ anyOf: [schema, { type: 'null' }] }) as const;

export const createWebhookBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    // Omitted: every event type, including ones added later.
    enabled_events: { type: 'array', minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true, items: EVENT_TYPE },
    description: { type: 'string', maxLength: 500 },
  },
} as const;

export type CreateWebhookBody = Validated<typeof createWebhookBodySchema>;

export const listWebhooksQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    cursor: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

export type ListWebhooksQuery = Validated<typeof listWebhooksQuerySchema>;

/** The delivery log takes the same paging. */
export const listDeliveriesQuerySchema = listWebhooksQuerySchema;

export const emptyQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;

const endpointProperties = {
  id: UUID,
  object: { type: 'string', const: 'webhook_endpoint' },
  url: { type: 'string' },
  description: nullable({ type: 'string' }),
  enabled_events: { type: 'array', items: EVENT_TYPE },
  // Shown in full only by the create response; afterwards a hint to tell secrets apart.
  secret_hint: { type: 'string' },
  created_at: TIMESTAMP,
} as const;

export const webhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'url', 'description', 'enabled_events', 'secret_hint', 'created_at'],
  properties: endpointProperties,
} as const;

export const createdWebhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...webhookEndpointSchema.required, 'secret'],
  properties: { ...endpointProperties, secret: { type: 'string', pattern: '^whsec_' } },
} as const;

const pageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['has_more', 'next_cursor'],
  properties: { has_more: { type: 'boolean' }, next_cursor: nullable({ type: 'string' }) },
} as const;

export const createWebhookResponseSchema = { type: 'object', additionalProperties: false, required: ['data'], properties: { data: createdWebhookEndpointSchema } } as const;
export const getWebhookResponseSchema = { type: 'object', additionalProperties: false, required: ['data'], properties: { data: webhookEndpointSchema } } as const;
export const listWebhooksResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data', 'page'],
  properties: { data: { type: 'array', items: webhookEndpointSchema }, page: pageSchema },
} as const;

export const deleteWebhookResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'object', 'deleted'],
      properties: { id: UUID, object: { type: 'string', const: 'webhook_endpoint' }, deleted: { type: 'boolean', const: true } },
    },
  },
} as const;

/** One attempt of one delivery, newest first. */
export const deliveryAttemptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['delivery_id', 'event_id', 'event_type', 'project_id', 'sequence', 'attempt', 'status_code', 'error', 'duration_ms', 'attempted_at', 'delivery_status', 'redelivery_of'],
  properties: {
    delivery_id: UUID,
    event_id: UUID,
    event_type: EVENT_TYPE,
    project_id: UUID,
    sequence: { type: 'integer', minimum: 1 },
    attempt: { type: 'integer', minimum: 1 },
    // Null when no HTTP response came back; `error` then says why.
    status_code: nullable({ type: 'integer' }),
    error: nullable({ type: 'string' }),
    duration_ms: { type: 'integer', minimum: 0 },
    attempted_at: TIMESTAMP,
    delivery_status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    redelivery_of: nullable(UUID),
  },
} as const;

export const listDeliveriesResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data', 'page'],
  properties: { data: { type: 'array', items: deliveryAttemptSchema }, page: pageSchema },
} as const;
