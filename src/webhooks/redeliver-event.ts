import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/create-db';
import type { WebhookRetrySchedule } from '../shared/webhook-contracts';
import { startWebhookDelivery } from '../temporal/start-webhook-delivery';

export interface Redelivery {
  deliveryId: string;
  endpointId: string;
  url: string;
  redeliveryOf: string | null;
  createdAt: Date;
}

/**
 * An operator's redelivery of one event: a new delivery (new delivery id, so a receiver that
 * deduplicates takes it) to the given endpoint, or to every live endpoint of the event's
 * workspace subscribed to its type, each with its own workflow. Throws when there is nothing
 * to deliver to.
 */
export async function redeliverEvent(
  db: Db,
  temporal: Client,
  options: { taskQueue: string; timeoutMs: number; retry: WebhookRetrySchedule },
  input: { eventId: string; endpointId?: string },
): Promise<Redelivery[]> {
  const event = await db.selectFrom('webhook_events').select(['id', 'workspace_id', 'project_id', 'type']).where('id', '=', input.eventId).executeTakeFirst();
  if (!event) throw new Error(`no webhook event ${input.eventId}`);
  let endpoints = db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'enabled_events'])
    .where('workspace_id', '=', event.workspace_id)
    .where('deleted_at', 'is', null);
  if (input.endpointId) endpoints = endpoints.where('id', '=', input.endpointId);
  const targets = (await endpoints.orderBy('seq').execute()).filter((e) => input.endpointId !== undefined || e.enabled_events.includes(event.type));
  if (targets.length === 0) {
    throw new Error(input.endpointId ? `no live endpoint ${input.endpointId} in the event's workspace` : `no live endpoint of the event's workspace subscribes to ${event.type}`);
  }
  const redeliveries = await db.transaction().execute(async (trx) => {
    const made: Redelivery[] = [];
    for (const endpoint of targets) {
      const original = await trx.selectFrom('webhook_deliveries').select('id').where('event_id', '=', event.id).where('endpoint_id', '=', endpoint.id).where('redelivery_of', 'is', null).executeTakeFirst();
      const id = randomUUID();
      // An endpoint that never had this event gets it as its original delivery.
      const row = await trx.insertInto('webhook_deliveries').values({ id, endpoint_id: endpoint.id, event_id: event.id, redelivery_of: original?.id ?? null, finished_at: null }).returning('created_at').executeTakeFirstOrThrow();
      made.push({ deliveryId: id, endpointId: endpoint.id, url: endpoint.url, redeliveryOf: original?.id ?? null, createdAt: row.created_at });
    }
    return made;
  });
  for (const delivery of redeliveries) {
    await startWebhookDelivery(temporal, options, { id: delivery.deliveryId, projectId: event.project_id, workspaceId: event.workspace_id, createdAt: delivery.createdAt });
  }
  return redeliveries;
}
