import { Client } from 'pg';
import type { Config } from '../config';
import type { Db } from '../db/create-db';
import { listenForFleetChanges, loadFleet, MISSED_HEARTBEATS_BEFORE_EXPIRY, WORKER_CAPABILITIES_CHANNEL } from '../db/worker-capabilities';
import type { Logger } from '../logger';
import { NO_CAPABILITIES, unionOfFleet, type FleetCapabilities } from './fleet-capabilities';

/** What the API reads capabilities from: the locale list and the create-time checks. */
export interface CapabilitySource {
  current(): FleetCapabilities;
}

/**
 * The API process's copy of its fleet's capabilities, so neither the locale list nor a create
 * pays a query for them. A worker joining or leaving NOTIFYs and the copy is re-read at once; a
 * timer re-reads it every heartbeat too, which is how a worker that died without a word drops out
 * (its record expires after three missed heartbeats). Until the first read, nothing is known.
 */
export class CapabilityCache implements CapabilitySource {
  private snapshot: FleetCapabilities = NO_CAPABILITIES;
  private listener: Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private closed = false;
  private reading: Promise<void> | null = null;
  private rereadAfterThis = false;

  constructor(private readonly options: { db: Db; databaseUrl: string; taskQueue: string; heartbeatSeconds: number; expiryWindowMs: number; logger: Logger }) {}

  /** Never throws: with the database down the API still starts (and /readyz says so); the timer catches up. */
  async start(): Promise<void> {
    await this.listen();
    await this.refreshLogged();
    this.timer = setInterval(() => void this.refreshLogged(), this.options.heartbeatSeconds * 1000);
    this.timer.unref();
  }

  private refreshLogged(): Promise<void> {
    return this.refresh().catch((err: unknown) => this.options.logger.warn('capability refresh failed', { err }));
  }

  current(): FleetCapabilities {
    return this.snapshot;
  }

  /**
   * Re-reads the fleet's records. Overlapping calls share one read, plus one more after it when
   * a notification arrived meanwhile, so the last change is never missed.
   */
  async refresh(): Promise<void> {
    if (this.reading) {
      this.rereadAfterThis = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.rereadAfterThis = false;
          const readAt = Date.now();
          const { rows, now } = await loadFleet(this.options.db, this.options.taskQueue);
          this.snapshot = unionOfFleet(rows, this.options.expiryWindowMs, now.getTime() - readAt);
        } while (this.rereadAfterThis && !this.closed);
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.relisten);
    await this.listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    // A listener lost just before close() must not come back after it (a connection, and
    // retries, outliving the cache).
    if (this.closed) return;
    const client = new Client({ connectionString: this.options.databaseUrl, application_name: 'dubbing-capability-cache' });
    client.on('notification', (message) => {
      if (message.channel === WORKER_CAPABILITIES_CHANNEL && message.payload === this.options.taskQueue) {
        void this.refreshLogged();
      }
    });
    let gone = false;
    const lost = (err: unknown) => {
      if (gone || this.closed) return;
      gone = true;
      // The timer keeps the copy at most one heartbeat behind; listening again restores "at once".
      this.options.logger.warn('capability cache lost its listener; re-reading on the timer only until it is back', { err });
      this.listener = null;
      // Listening again re-reads too: a notification may have been missed meanwhile.
      this.relisten = setTimeout(() => void this.listen().then(() => this.refreshLogged()), 2000);
      this.relisten.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    try {
      await client.connect();
      await listenForFleetChanges(client);
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.listener = client;
    } catch (err) {
      await client.end().catch(() => undefined);
      lost(err);
    }
  }
}

/** The cache for this process's fleet (its TEMPORAL_TASK_QUEUE), started: the first read is done. */
export async function startCapabilityCache(config: Config, db: Db, databaseUrl: string, logger: Logger): Promise<CapabilityCache> {
  const { heartbeatSeconds } = config.worker;
  const cache = new CapabilityCache({
    db,
    databaseUrl,
    taskQueue: config.temporal.taskQueue,
    heartbeatSeconds,
    expiryWindowMs: heartbeatSeconds * MISSED_HEARTBEATS_BEFORE_EXPIRY * 1000,
    logger,
  });
  await cache.start();
  return cache;
}
