import { sql, type RawBuilder } from 'kysely';
import type { Db } from './create-db';
import type { WebhookEventType } from '../shared/webhook-contracts';

// The relay's view of the webhook outbox (docs/webhooks.md#delivery-retries-ordering): the events
// whose deliveries no relay has started, and their marking. The appends are in outbox-appends.ts,
// for the lifecycle alone. The caller owns the transaction.

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
