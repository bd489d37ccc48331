import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/create-db';
import { endpointsFor, findEndpoint, findEvent, findOriginalDelivery, insertDelivery } from '../db/webhooks';
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
  const event = await findEvent(db, input.eventId);
  if (!event) throw new Error(`no webhook event ${input.eventId}`);
  // A named endpoint gets the event whatever it subscribes to; otherwise every subscriber does.
  const targets = input.endpointId ? [await findEndpoint(db, event.workspace_id, input.endpointId)].filter((e) => e !== undefined) : await endpointsFor(db, event.workspace_id, event.type);
  if (targets.length === 0) {
    throw new Error(input.endpointId ? `no live endpoint ${input.endpointId} in the event's workspace` : `no live endpoint of the event's workspace subscribes to ${event.type}`);
  }
  const redeliveries = await db.transaction().execute(async (trx) => {
    const made: Redelivery[] = [];
    for (const endpoint of targets) {
      const original = await findOriginalDelivery(trx, event.id, endpoint.id);
      const id = randomUUID();
      // An endpoint that never had this event gets it as its original delivery.
      const row = await insertDelivery(trx, { id, endpointId: endpoint.id, eventId: event.id, redeliveryOf: original?.id });
      made.push({ deliveryId: id, endpointId: endpoint.id, url: endpoint.url, redeliveryOf: original?.id ?? null, createdAt: row.created_at });
    }
    return made;
  });
  for (const delivery of redeliveries) {
    await startWebhookDelivery(temporal, options, { id: delivery.deliveryId, projectId: event.project_id, workspaceId: event.workspace_id, createdAt: delivery.createdAt });
  }
  return redeliveries;
}
