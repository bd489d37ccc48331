import type { Transaction } from 'kysely';
import type { Database } from './database';
import type { WebhookEventType } from '../shared/webhook-contracts';

// Appends to the webhook outbox (docs/webhooks.md#delivery-retries-ordering). Only src/lifecycle
// imports this file (eslint/layers.js): an event is written by the transition it reports, in its
// transaction, never derived elsewhere. The caller owns the transaction.

export interface AppendedEvent {
  id: string;
  sequence: number;
}

/** The project's last event sequence and whether its last event is `project.deleted` (after which nothing is written). */
export async function outboxTail(trx: Transaction<Database>, projectId: string): Promise<{ sequence: number; deleted: boolean }> {
  const last = await trx.selectFrom('webhook_events').select(['sequence', 'type']).where('project_id', '=', projectId).orderBy('sequence', 'desc').limit(1).executeTakeFirst();
  return { sequence: last?.sequence ?? 0, deleted: last?.type === 'project.deleted' };
}

/** One event, unless the project already has it (the same type and discriminator): then undefined. */
export async function appendEventRow(
  trx: Transaction<Database>,
  row: { id: string; workspaceId: string; projectId: string; sequence: number; type: WebhookEventType; discriminator: string; payload: unknown },
): Promise<AppendedEvent | undefined> {
  return trx
    .insertInto('webhook_events')
    .values({ id: row.id, workspace_id: row.workspaceId, project_id: row.projectId, sequence: row.sequence, type: row.type, discriminator: row.discriminator, payload: JSON.stringify(row.payload) })
    .onConflict((oc) => oc.columns(['project_id', 'type', 'discriminator']).doNothing())
    .returning(['id', 'sequence'])
    .executeTakeFirst();
}

/** The events appended earlier in the same transaction take the payload of its latest append. */
export async function refreshEventPayloads(trx: Transaction<Database>, eventIds: readonly string[], payload: unknown): Promise<void> {
  if (eventIds.length === 0) return;
  await trx
    .updateTable('webhook_events')
    .set({ payload: JSON.stringify(payload) })
    .where('id', 'in', eventIds)
    .execute();
}
