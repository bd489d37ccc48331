import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';
import type { WebhookEventType } from '../shared/webhook-contracts';

// The webhook outbox (docs/webhooks.md#emission): events appended by the lifecycle's transitions,
// numbered per project, and the relay's view of the ones whose deliveries it has not started.
// The caller owns the transaction.

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

export interface UnrelayedEvent {
  id: string;
  type: WebhookEventType;
  workspace_id: string;
  deliveries: { id: string; created_at: Date }[];
}

/** The project's events whose deliveries the relay has not started, in order, with their pending deliveries. */
export async function unrelayedEvents(db: Db, projectId: string): Promise<UnrelayedEvent[]> {
  const rows = await db
    .selectFrom('webhook_events as e')
    .leftJoin('webhook_deliveries as d', (join) => join.onRef('d.event_id', '=', 'e.id').on('d.status', '=', 'pending'))
    .select(['e.id', 'e.type', 'e.workspace_id', 'e.sequence', 'd.id as delivery_id', 'd.created_at as delivery_created_at'])
    .where('e.project_id', '=', projectId)
    .where('e.relayed_at', 'is', null)
    .orderBy('e.sequence')
    .orderBy('d.created_at')
    .execute();
  const events = new Map<string, UnrelayedEvent>();
  for (const row of rows) {
    const event = events.get(row.id) ?? { id: row.id, type: row.type, workspace_id: row.workspace_id, deliveries: [] };
    events.set(row.id, event);
    if (row.delivery_id !== null && row.delivery_created_at !== null) event.deliveries.push({ id: row.delivery_id, created_at: row.delivery_created_at });
  }
  return [...events.values()];
}

/** The relay started these events' deliveries. */
export async function markRelayed(db: Db, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db
    .updateTable('webhook_events')
    .set({ relayed_at: sql<Date>`now()` })
    .where('id', 'in', eventIds)
    .where('relayed_at', 'is', null)
    .execute();
}

/** Projects with events the relay has not started since before `staleBefore`: the reconciler's to relay. */
export async function listProjectsWithStaleOutbox(db: Db, input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number }): Promise<string[]> {
  let q = db.selectFrom('webhook_events').select('project_id').distinct().where('relayed_at', 'is', null).where('created_at', '<', input.staleBefore);
  if (input.workspaceId) q = q.where('workspace_id', '=', input.workspaceId);
  return (await q.limit(input.limit).execute()).map((r) => r.project_id);
}
