import type { ErrorContract, Operation } from '../openapi/operation';
import {
  createWebhookBodySchema,
  createWebhookResponseSchema,
  deleteWebhookResponseSchema,
  emptyQuerySchema,
  getWebhookResponseSchema,
  listDeliveriesQuerySchema,
  listDeliveriesResponseSchema,
  listWebhooksQuerySchema,
  listWebhooksResponseSchema,
} from './webhooks.schema';

// The webhook routes' contract, from the very schemas webhooks.routes.ts validates with.

const webhookId = { webhook_id: { description: 'The endpoint id returned by create.', schema: { type: 'string', format: 'uuid' } } };

const AUTH_ERRORS: ErrorContract[] = [
  { status: 401, codes: ['unauthenticated'] },
  { status: 403, codes: ['permission_denied'], description: 'The key lacks dubbing:write.' },
];
const NOT_FOUND: ErrorContract = { status: 404, codes: ['not_found'], description: 'No such endpoint in this workspace (or it was deleted).' };
const BAD_QUERY: ErrorContract = { status: 400, codes: ['unknown_parameter', 'invalid_parameter', 'invalid_cursor'] };

export const webhooksOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      "Events of the workspace's projects are POSTed to `url`, signed with the returned `secret` (shown only here). The url must be http(s) and reach public addresses only: a literal address or local name is refused here, a name is resolved and checked at each delivery. A workspace has at most WEBHOOK_MAX_ENDPOINTS_PER_WORKSPACE live endpoints (16 by default). See docs/webhooks.md.",
    tags: ['Webhooks'],
    auth: 'dubbing:write',
    idempotency: 'required',
    body: createWebhookBodySchema,
    bodyExample: { url: 'https://example.com/dubbing/webhooks', enabled_events: ['project.completed', 'project.failed'], description: 'production receiver' },
    responses: { 201: { description: 'The endpoint, with its signing secret in full.', schema: createWebhookResponseSchema } },
    errors: [
      {
        status: 400,
        codes: [
          'idempotency_key_missing',
          'invalid_json',
          'unknown_parameter',
          'missing_parameter',
          'invalid_parameter',
          'invalid_webhook_url',
          'webhook_target_forbidden',
          'webhook_target_unresolvable',
        ],
      },
      ...AUTH_ERRORS,
      {
        status: 409,
        codes: ['idempotency_request_in_progress', 'webhook_endpoint_limit_reached', 'webhook_endpoint_deleted'],
        description: 'The workspace has as many live endpoints as it may; or this Idempotency-Key created an endpoint that has since been deleted.',
      },
      { status: 422, codes: ['idempotency_key_reused'] },
    ],
  },
  {
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: 'Newest first, with an opaque cursor. Secrets are not shown, only `secret_hint`.',
    tags: ['Webhooks'],
    auth: 'dubbing:write',
    query: listWebhooksQuerySchema,
    responses: { 200: { description: 'A page of endpoints.', schema: listWebhooksResponseSchema } },
    errors: [BAD_QUERY, ...AUTH_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{webhook_id}',
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    tags: ['Webhooks'],
    auth: 'dubbing:write',
    pathParams: webhookId,
    query: emptyQuerySchema,
    responses: { 200: { description: 'The endpoint.', schema: getWebhookResponseSchema } },
    errors: [BAD_QUERY, ...AUTH_ERRORS, NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{webhook_id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; deliveries still pending are given up at their next attempt.',
    tags: ['Webhooks'],
    auth: 'dubbing:write',
    pathParams: webhookId,
    query: emptyQuerySchema,
    responses: { 200: { description: 'Deleted.', schema: deleteWebhookResponseSchema } },
    errors: [BAD_QUERY, ...AUTH_ERRORS, NOT_FOUND],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{webhook_id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "An endpoint's delivery log",
    description: "Every attempt of every delivery to the endpoint, newest first: status code or error, duration, and the delivery's outcome so far.",
    tags: ['Webhooks'],
    auth: 'dubbing:write',
    pathParams: webhookId,
    query: listDeliveriesQuerySchema,
    responses: { 200: { description: 'A page of attempts.', schema: listDeliveriesResponseSchema } },
    errors: [BAD_QUERY, ...AUTH_ERRORS, NOT_FOUND],
  },
];
