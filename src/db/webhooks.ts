import { sql, type ColumnType, type ExpressionBuilder, type Generated, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from './create-db';
import type { Database } from './database';
import type { WebhookEventType } from '../shared/webhook-contracts';

// Webhook endpoints, the events projects emit (an outbox numbered per project), their
// deliveries and every attempt. The caller owns the transaction.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  url: string;
  /**
   * The signing secret, sealed (`v1:…`, src/webhooks/secret-box.ts) or, on a row written
   * before encryption, plain; null once the endpoint is deleted.
   */
  secret: string | null;
  enabled_events: string[];
  description: string | null;
  created_at: ColumnType<Date, never, never>;
  deleted_at: Date | null;
}

export interface WebhookEventTable {
  id: string;
  workspace_id: string;
  project_id: string;
  sequence: number;
  type: WebhookEventType;
  discriminator: string;
  /** Written once per transaction that appends events, refreshed by its later appends (src/lifecycle/project-events.ts). */
  payload: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, never, never>;
  /** When the relay started its deliveries; null until then (src/webhooks/relay-events.ts). */
  relayed_at: ColumnType<Date | null, Date | null | undefined, Date>;
}

export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  redelivery_of: string | null;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, never, number>;
  created_at: ColumnType<Date, never, never>;
  finished_at: Date | null;
}

export interface WebhookDeliveryAttemptTable {
  seq: Generated<number>;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: ColumnType<Date, never, never>;
}

export type WebhookEndpoint = Selectable<WebhookEndpointTable>;
export type WebhookEvent = Selectable<WebhookEventTable>;
export type WebhookDelivery = Selectable<WebhookDeliveryTable>;

export async function insertEndpoint(db: Db, row: { id: string; workspaceId: string; url: string; secret: string; enabledEvents: string[]; description: string | null }): Promise<WebhookEndpoint> {
  return db
    .insertInto('webhook_endpoints')
    .values({ id: row.id, workspace_id: row.workspaceId, url: row.url, secret: row.secret, enabled_events: row.enabledEvents, description: row.description, deleted_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Inserts the endpoint unless the workspace already has `max` live ones (then answers null and
 * writes nothing). Two creates at the limit cannot both pass: each counts under a transaction
 * lock on the workspace's endpoints (an advisory lock, so paid work on the workspace row never
 * waits for it), taken before counting and held until the insert commits.
 */
export async function insertEndpointWithinLimit(db: Db, row: Parameters<typeof insertEndpoint>[1], max: number): Promise<WebhookEndpoint | null> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${row.workspaceId}`}))`.execute(trx);
    const { live } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('live'))
      .where('workspace_id', '=', row.workspaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(live) >= max) return null;
    return insertEndpoint(trx, row);
  });
}

/** A live endpoint of the workspace; deleted ones and other workspaces' are not found. */
export async function findEndpoint(db: Db, workspaceId: string, id: string): Promise<WebhookEndpoint | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Newest first; one row more than `limit` says there is another page. */
export async function listEndpoints(db: Db, input: { workspaceId?: string; limit: number; beforeSeq?: number }): Promise<WebhookEndpoint[]> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('deleted_at', 'is', null);
  if (input.workspaceId !== undefined) query = query.where('workspace_id', '=', input.workspaceId);
  if (input.beforeSeq !== undefined) query = query.where('seq', '<', input.beforeSeq);
  return query
    .orderBy('seq', 'desc')
    .limit(input.limit + 1)
    .execute();
}

/**
 * Soft delete; pending deliveries to it give up at their next attempt. The secret goes with it:
 * nothing is signed for a deleted endpoint again. False when already gone.
 */
export async function deleteEndpoint(db: Db, id: string, workspaceId?: string): Promise<boolean> {
  let query = db.updateTable('webhook_endpoints').set({ deleted_at: new Date(), secret: null }).where('id', '=', id).where('deleted_at', 'is', null);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Live endpoints whose secret is still stored in clear (written before encryption at rest). */
export async function endpointsWithPlainSecrets(db: Db): Promise<{ id: string; secret: string }[]> {
  const rows = await db.selectFrom('webhook_endpoints').select(['id', 'secret']).where('deleted_at', 'is', null).where('secret', 'not like', 'v1:%').execute();
  return rows.filter((row): row is { id: string; secret: string } => row.secret !== null);
}

/** Replaces a plain secret by its sealed form; false when the row changed meanwhile. */
export async function replacePlainSecret(db: Db, id: string, plain: string, sealed: string): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set({ secret: sealed }).where('id', '=', id).where('secret', '=', plain).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The live endpoints of a workspace that want this type of event. */
export async function endpointsFor(db: Db, workspaceId: string, type: string): Promise<WebhookEndpoint[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`${type} = any(enabled_events)`)
    .orderBy('seq')
    .execute();
}

export async function findEvent(db: Db, id: string): Promise<WebhookEvent | undefined> {
  return db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertDelivery(db: Db, row: { id: string; endpointId: string; eventId: string; redeliveryOf?: string }): Promise<WebhookDelivery> {
  return db
    .insertInto('webhook_deliveries')
    .values({ id: row.id, endpoint_id: row.endpointId, event_id: row.eventId, redelivery_of: row.redeliveryOf ?? null, finished_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The event's first delivery to the endpoint (not a redelivery); undefined if it never had one. */
export async function findOriginalDelivery(db: Db, eventId: string, endpointId: string): Promise<Pick<WebhookDelivery, 'id'> | undefined> {
  return db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).where('endpoint_id', '=', endpointId).where('redelivery_of', 'is', null).executeTakeFirst();
}

/** Everything one attempt needs: the delivery, its event and its endpoint (deleted or not). */
export async function loadDelivery(db: Db, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      'd.id as delivery_id',
      'd.status',
      'd.attempts',
      'e.id as event_id',
      'e.type',
      'e.sequence',
      'e.project_id',
      'e.discriminator',
      'e.payload',
      'e.created_at as event_created_at',
      'w.id as endpoint_id',
      'w.url',
      'w.secret',
      'w.deleted_at',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** A delivery `d` of event `e`, joined: the scope of the queue checks below. */
type DeliveryScope = Database & { d: WebhookDeliveryTable; e: WebhookEventTable };

/** An earlier event of the same project is still pending to the same endpoint: `d` waits behind it. */
function earlierPendingInQueue({ exists, selectFrom }: ExpressionBuilder<DeliveryScope, 'd' | 'e'>) {
  return exists(
    selectFrom('webhook_deliveries as d2')
      .innerJoin('webhook_events as e2', 'e2.id', 'd2.event_id')
      .select('d2.id')
      .whereRef('d2.endpoint_id', '=', 'd.endpoint_id')
      .whereRef('e2.project_id', '=', 'e.project_id')
      .whereRef('e2.sequence', '<', 'e.sequence')
      .where('d2.status', '=', 'pending'),
  );
}

/**
 * Delivery of sequence N to an endpoint waits while an earlier event of the same project still
 * has a pending delivery to that endpoint: events arrive in order, each delivered or given up.
 */
export async function earlierDeliveryPending(db: Db, deliveryId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .where('d.id', '=', deliveryId)
    .where(earlierPendingInQueue)
    .select('d.id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records one attempt (a retried activity overwrites its own row) and, when it ends the
 * delivery, the delivery's outcome. A delivery that has already ended keeps its outcome.
 */
export async function recordAttempt(
  db: Db,
  input: { deliveryId: string; endpointId: string; attempt: number; statusCode: number | null; error: string | null; durationMs: number; outcome: DeliveryStatus },
): Promise<void> {
  await db
    .insertInto('webhook_delivery_attempts')
    .values({ delivery_id: input.deliveryId, endpoint_id: input.endpointId, attempt: input.attempt, status_code: input.statusCode, error: input.error, duration_ms: input.durationMs })
    .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doUpdateSet({ status_code: input.statusCode, error: input.error, duration_ms: input.durationMs }))
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: sql<number>`greatest(attempts, ${input.attempt})`,
      ...(input.outcome === 'pending' ? {} : { status: input.outcome, finished_at: new Date() }),
    })
    .where('id', '=', input.deliveryId)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * The deliveries that may go once `deliveryId` has ended: the pending ones of the same project to
 * the same endpoint with the lowest sequence left (an event's original and its redeliveries share
 * one). Whoever ends a delivery signals these, so they do not poll.
 */
export async function nextInQueue(db: Db, deliveryId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_events as e2', 'e2.project_id', 'e.project_id')
    .innerJoin('webhook_deliveries as d2', (join) => join.onRef('d2.event_id', '=', 'e2.id').onRef('d2.endpoint_id', '=', 'd.endpoint_id'))
    .select(['d2.id', 'e2.sequence'])
    .where('d.id', '=', deliveryId)
    .where('d2.status', '=', 'pending')
    .where('d2.id', '<>', deliveryId)
    .orderBy('e2.sequence')
    .limit(100)
    .execute();
  const lowest = rows[0]?.sequence;
  return rows.filter((r) => r.sequence === lowest).map((r) => r.id);
}

/**
 * Pending deliveries at the head of their queue (no earlier event of the project pending to the
 * endpoint), unchanged since `staleBefore`: each must have a running workflow, or nothing will
 * ever send it or the ones queued behind it. Only heads, so the deliveries waiting behind a
 * receiver that is down are not looked at one by one; a dead one is found when it is the head.
 */
export async function pendingQueueHeads(db: Db, input: { staleBefore: RawBuilder<Date>; workspaceId?: string; limit: number }) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.created_at', 'd.attempts', 'e.project_id', 'e.workspace_id'])
    .where('d.status', '=', 'pending')
    .where('d.created_at', '<', input.staleBefore)
    .where((eb) => eb.not(earlierPendingInQueue(eb)));
  if (input.workspaceId !== undefined) query = query.where('e.workspace_id', '=', input.workspaceId);
  return query.orderBy('d.created_at').limit(input.limit).execute();
}

/** The retry window or the lifetime closed: the delivery is given up (the next event may go). */
export async function giveUpDelivery(db: Db, deliveryId: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'failed', finished_at: new Date() }).where('id', '=', deliveryId).where('status', '=', 'pending').execute();
}

export interface DeliveryLogEntry {
  seq: number;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
  delivery_status: DeliveryStatus;
  redelivery_of: string | null;
  event_id: string;
  event_type: string;
  sequence: number;
  project_id: string;
}

/** An endpoint's attempts, newest first; one row more than `limit` says there is another page. */
export async function listDeliveryLog(db: Db, input: { endpointId: string; limit: number; beforeSeq?: number }): Promise<DeliveryLogEntry[]> {
  let query = db
    .selectFrom('webhook_delivery_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'a.seq',
      'a.delivery_id',
      'a.attempt',
      'a.status_code',
      'a.error',
      'a.duration_ms',
      'a.attempted_at',
      'd.status as delivery_status',
      'd.redelivery_of',
      'e.id as event_id',
      'e.type as event_type',
      'e.sequence',
      'e.project_id',
    ])
    .where('a.endpoint_id', '=', input.endpointId);
  if (input.beforeSeq !== undefined) query = query.where('a.seq', '<', input.beforeSeq);
  return query
    .orderBy('a.seq', 'desc')
    .limit(input.limit + 1)
    .execute();
}
