import { sql, type ColumnType } from 'kysely';
import type { Client } from 'pg';
import type { EngineCapabilities } from '../shared/engine-capabilities';
import type { Db } from './create-db';

// Workers publish what their engines serve here; the API reads the union of the live ones.
// Every time comparison uses the database's clock, so clock drift between machines cannot make a
// dead worker look alive or a live one dead.

/** NOTIFY channel: a worker of the fleet named in the payload (its task queue) joined or left. */
export const WORKER_CAPABILITIES_CHANNEL = 'worker_capabilities';

/** From now on, `client` emits a 'notification' whenever a worker joins or leaves a fleet. */
export async function listenForFleetChanges(client: Client): Promise<void> {
  await client.query(`LISTEN ${WORKER_CAPABILITIES_CHANNEL}`);
}

/** How many heartbeats a worker may miss before its record stops counting as live. */
export const MISSED_HEARTBEATS_BEFORE_EXPIRY = 3;

/** Rows expired this long ago are deleted; until then they are the fleet's last known capabilities. */
const RETENTION = '30 days';

export interface WorkerCapabilitiesTable {
  worker_id: string;
  task_queue: string;
  media_task_queue: string | null;
  capabilities: ColumnType<EngineCapabilities, string, string>;
  started_at: ColumnType<Date, never, never>;
  // Written only as expressions on the database's clock (now() + …), never from this process's.
  heartbeat_at: ColumnType<Date, never, Date>;
  expires_at: ColumnType<Date, Date, Date>;
}

export interface WorkerRecord {
  workerId: string;
  taskQueue: string;
  mediaTaskQueue: string | null;
  capabilities: EngineCapabilities;
  heartbeatAt: Date;
  expiresAt: Date;
  live: boolean;
}

const notifyFleet = (db: Db, taskQueue: string) => sql`select pg_notify(${WORKER_CAPABILITIES_CHANNEL}, ${taskQueue})`.execute(db);

/** Records (or replaces) a worker's capabilities, live for `ttlSeconds`, and tells the API processes. */
export async function publishWorker(db: Db, worker: { workerId: string; taskQueue: string; mediaTaskQueue: string | null; capabilities: EngineCapabilities; ttlSeconds: number }): Promise<void> {
  const expires = sql<Date>`now() + make_interval(secs => ${worker.ttlSeconds})`;
  await db
    .insertInto('worker_capabilities')
    .values({ worker_id: worker.workerId, task_queue: worker.taskQueue, media_task_queue: worker.mediaTaskQueue, capabilities: JSON.stringify(worker.capabilities), expires_at: expires })
    .onConflict((oc) =>
      oc.column('worker_id').doUpdateSet({
        task_queue: worker.taskQueue,
        media_task_queue: worker.mediaTaskQueue,
        capabilities: JSON.stringify(worker.capabilities),
        heartbeat_at: sql<Date>`now()`,
        expires_at: expires,
      }),
    )
    .execute();
  await notifyFleet(db, worker.taskQueue);
}

/**
 * Renews a worker's record. False when the row is gone (pruned while the worker was paused for a
 * long time): the caller publishes it again. A renewal needs no NOTIFY: nothing the API shows
 * changes, and API processes re-read on their own timer to notice expiries.
 */
export async function renewWorker(db: Db, workerId: string, ttlSeconds: number): Promise<boolean> {
  const renewed = await db
    .updateTable('worker_capabilities')
    .set({ heartbeat_at: sql<Date>`now()`, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
  return renewed.numUpdatedRows > 0n;
}

/** A worker stopping: its record expires now (it stays as last known) and the API hears at once. */
export async function retireWorker(db: Db, workerId: string, taskQueue: string): Promise<void> {
  await db
    .updateTable('worker_capabilities')
    .set({ expires_at: sql<Date>`greatest(heartbeat_at, now())` })
    .where('worker_id', '=', workerId)
    .execute();
  await notifyFleet(db, taskQueue);
}

/**
 * Whether this worker's record counts as live now, on the database's clock: what the API sees of
 * it. A worker whose heartbeats failed long enough is no longer offered, whatever it believes.
 */
export async function isWorkerLive(db: Db, workerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('worker_capabilities')
    .select(sql<boolean>`expires_at > now()`.as('live'))
    .where('worker_id', '=', workerId)
    .executeTakeFirst();
  return row?.live ?? false;
}

/** Deletes records long expired; any worker may run it, it is idempotent. */
export async function pruneExpiredWorkers(db: Db): Promise<void> {
  await db
    .deleteFrom('worker_capabilities')
    .where('expires_at', '<', sql<Date>`now() - ${RETENTION}::interval`)
    .execute();
}

/** Every record of one fleet, each judged live or not by the database's clock. */
export async function loadFleet(db: Db, taskQueue: string): Promise<{ rows: WorkerRecord[]; now: Date }> {
  const rows = await db
    .selectFrom('worker_capabilities')
    .select(['worker_id', 'task_queue', 'media_task_queue', 'capabilities', 'heartbeat_at', 'expires_at'])
    .select(sql<boolean>`expires_at > now()`.as('live'))
    .select(sql<Date>`now()`.as('now'))
    .where('task_queue', '=', taskQueue)
    .orderBy('worker_id')
    .execute();
  const now = rows[0]?.now ?? (await sql<{ now: Date }>`select now() as now`.execute(db)).rows[0]!.now;
  return {
    now,
    rows: rows.map((row) => ({
      workerId: row.worker_id,
      taskQueue: row.task_queue,
      mediaTaskQueue: row.media_task_queue,
      capabilities: row.capabilities,
      heartbeatAt: row.heartbeat_at,
      expiresAt: row.expires_at,
      live: row.live,
    })),
  };
}
