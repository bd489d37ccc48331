import type { Db } from '../db/create-db';
import { MISSED_HEARTBEATS_BEFORE_EXPIRY, publishWorker, pruneExpiredWorkers, renewWorker, retireWorker } from '../db/worker-capabilities';
import type { EngineCapabilities } from '../engines/capabilities';
import type { Logger } from '../logger';

export interface WorkerAdvert {
  workerId: string;
  /** The fleet: the deployment's workflow task queue. */
  taskQueue: string;
  /** The media queue this worker polls; null when it runs no media steps. */
  mediaTaskQueue: string | null;
  capabilities: EngineCapabilities;
}

/**
 * Keeps this worker's record in PostgreSQL: published at start (the API hears at once through
 * NOTIFY), renewed every heartbeat, expired at a clean stop. A worker that dies silently drops out
 * once MISSED_HEARTBEATS_BEFORE_EXPIRY beats are missed. A failed beat is only logged: the next
 * one tries again, and the record lives through a few missed ones.
 */
export class CapabilityPublisher {
  private timer: NodeJS.Timeout | undefined;
  private readonly ttlSeconds: number;

  constructor(
    private readonly db: Db,
    private readonly advert: WorkerAdvert,
    private readonly heartbeatSeconds: number,
    private readonly logger: Logger,
  ) {
    this.ttlSeconds = heartbeatSeconds * MISSED_HEARTBEATS_BEFORE_EXPIRY;
  }

  async start(): Promise<void> {
    await publishWorker(this.db, { ...this.advert, ttlSeconds: this.ttlSeconds });
    await pruneExpiredWorkers(this.db);
    this.timer = setInterval(() => void this.beat(), this.heartbeatSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await retireWorker(this.db, this.advert.workerId, this.advert.taskQueue).catch((err: unknown) => this.logger.warn('could not retire the worker record; it expires on its own', { err }));
  }

  private async beat(): Promise<void> {
    try {
      // Gone (pruned while this process was paused for a long time): publish it again.
      if (!(await renewWorker(this.db, this.advert.workerId, this.ttlSeconds))) await publishWorker(this.db, { ...this.advert, ttlSeconds: this.ttlSeconds });
    } catch (err) {
      this.logger.warn('capability heartbeat failed; retrying on the next beat', { err });
    }
  }
}
