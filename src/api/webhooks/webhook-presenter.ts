import type { DeliveryLogEntry, WebhookEndpoint } from '../../db/webhooks';
import { secretHint } from '../../webhooks/endpoint-secret';

// The public shapes of an endpoint and of a delivery attempt (webhooks.schema.ts describes them).

/** A live endpoint with its secret opened (src/webhooks/secret-box.ts). */
export type OpenEndpoint = Omit<WebhookEndpoint, 'secret'> & { secret: string };

export function presentEndpoint(endpoint: OpenEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    description: endpoint.description,
    enabled_events: endpoint.enabled_events,
    secret_hint: secretHint(endpoint.secret),
    created_at: endpoint.created_at.toISOString(),
  };
}

/** Only the create response carries the secret in full. */
export const presentCreatedEndpoint = (endpoint: OpenEndpoint) => ({ ...presentEndpoint(endpoint), secret: endpoint.secret });

export function presentAttempt(entry: DeliveryLogEntry) {
  return {
    delivery_id: entry.delivery_id,
    event_id: entry.event_id,
    event_type: entry.event_type,
    project_id: entry.project_id,
    sequence: entry.sequence,
    attempt: entry.attempt,
    status_code: entry.status_code,
    error: entry.error,
    duration_ms: entry.duration_ms,
    attempted_at: entry.attempted_at.toISOString(),
    delivery_status: entry.delivery_status,
    redelivery_of: entry.redelivery_of,
  };
}
