import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { API_KEY_CHANNEL, listenForKeyChanges, sendKeyChannelMarker, type ApiKeyWithWorkspace } from '../db/api-keys';
import type { Logger } from '../logger';

/** Payload prefix of sync() markers; key ids never contain ":", so a marker never names a key. */
const SYNC_MARKER = 'sync:';

/**
 * Key rows cached in process, so an authenticated request does not pay a database round trip
 * for its key. Revocations arrive over LISTEN/NOTIFY and evict at once; while the listening
 * connection is down the cache is bypassed entirely, so a missed notification can never keep a
 * revoked key alive. The TTL is only a backstop.
 *
 * Key ids no row has are remembered too, for a short while, so a client repeating a wrong key
 * costs one read per window, not one per request. That cannot hide a key created afterwards: an
 * id is 16 random characters (api-key-secret.ts), never one a stranger guessed before, and every
 * new key is announced on the channel like a revocation (insertApiKey), which forgets a
 * remembered miss of its id at once (a fixed dev key, DUBBING_DEV_API_KEY, is the one id known
 * in advance).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { row: ApiKeyWithWorkspace; at: number }>();
  /** Key ids read as missing, with when. */
  private readonly misses = new Map<string, number>();
  /**
   * One ticket per read in flight, by key id. An eviction of that key (or of everything) marks
   * its tickets stale, and a stale read is not cached: it may predate a revocation whose NOTIFY
   * has already come and gone, evicting nothing, and caching the row would revive the key until
   * the TTL. Per key, so other keys' notifications (every new key is announced) cannot keep a
   * busy service from caching anything.
   */
  private readonly reads = new Map<string, Set<{ stale: boolean }>>();
  private readonly pendingSyncs = new Map<string, () => void>();
  private client: Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
    private readonly missTtlMs = 30_000,
    private readonly maxMisses = 10_000,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  get(keyId: string, now = Date.now()): ApiKeyWithWorkspace | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(keyId);
    if (!entry) return undefined;
    if (now - entry.at > this.ttlMs) {
      this.entries.delete(keyId);
      return undefined;
    }
    return entry.row;
  }

  /** True when `keyId` was read as missing within the miss TTL (and nothing about it since). */
  isKnownMissing(keyId: string, now = Date.now()): boolean {
    if (!this.listening) return false;
    const at = this.misses.get(keyId);
    if (at === undefined) return false;
    if (now - at > this.missTtlMs) {
      this.misses.delete(keyId);
      return false;
    }
    return true;
  }

  /**
   * The cached row, else the row `load` reads, which is cached only when no eviction of that key
   * happened during the read (see `reads`); likewise a miss. There is no other way in, so no caller
   * can skip the guard.
   */
  async getOrLoad(keyId: string, load: () => Promise<ApiKeyWithWorkspace | undefined>): Promise<ApiKeyWithWorkspace | undefined> {
    const cached = this.get(keyId);
    if (cached) return cached;
    if (this.isKnownMissing(keyId)) return undefined;
    const ticket = { stale: false };
    const tickets = this.reads.get(keyId) ?? new Set();
    this.reads.set(keyId, tickets.add(ticket));
    let row: ApiKeyWithWorkspace | undefined;
    try {
      row = await load();
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0) this.reads.delete(keyId);
    }
    if (!ticket.stale && this.listening) {
      if (row && row.id === keyId) {
        if (this.entries.size >= this.maxEntries) this.entries.clear();
        this.entries.set(keyId, { row, at: Date.now() });
      } else if (!row) {
        // Full: start over. A flood of fresh ids costs a read each either way; the per-address
        // failure limit (src/api/rate-limit/auth-failure-limiter.ts) is what bounds that.
        if (this.misses.size >= this.maxMisses) this.misses.clear();
        this.misses.set(keyId, Date.now());
      }
    }
    return row;
  }

  /**
   * Resolves once every key change committed before the call has reached this cache. PostgreSQL
   * delivers notifications in commit order, so when our own marker arrives on the channel, every
   * revocation committed earlier has been applied. Lets an operator tool or a test wait for
   * "revoked" to be true here, instead of sleeping and hoping.
   */
  async sync(): Promise<void> {
    const client = this.client;
    // Not listening: the cache is bypassed, so every request already reads the database.
    if (!this.listening || !client) return;
    const marker = `${SYNC_MARKER}${randomUUID()}`;
    const arrived = new Promise<void>((resolve) => this.pendingSyncs.set(marker, resolve));
    try {
      await sendKeyChannelMarker(client, marker);
    } catch (err) {
      // The listener failed with it (lost() released every waiter); it is bypassed until back.
      this.pendingSyncs.delete(marker);
      if (this.listening) throw err;
    }
    await arrived;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.listening = false;
    this.evictAll();
    await this.client?.end().catch(() => undefined);
  }

  private onNotification(payload: string): void {
    if (payload.startsWith(SYNC_MARKER)) {
      // Markers of other API processes pass by too; only ours have a waiter.
      this.pendingSyncs.get(payload)?.();
      this.pendingSyncs.delete(payload);
      return;
    }
    for (const ticket of this.reads.get(payload) ?? []) ticket.stale = true;
    this.entries.delete(payload);
    this.misses.delete(payload);
  }

  /** Forgets every row and releases sync() waiters: with nothing cached, nothing is stale. */
  private evictAll(): void {
    for (const tickets of this.reads.values()) for (const ticket of tickets) ticket.stale = true;
    this.entries.clear();
    this.misses.clear();
    for (const resolve of this.pendingSyncs.values()) resolve();
    this.pendingSyncs.clear();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'dubbing-api-key-cache' });
    client.on('notification', (message) => {
      if (message.channel === API_KEY_CHANNEL && message.payload) this.onNotification(message.payload);
    });
    client.on('error', (err) => this.lost(err));
    client.on('end', () => this.lost(new Error('connection ended')));
    try {
      await client.connect();
      await listenForKeyChanges(client);
      // Closed while connecting (the database was just back): this connection must not outlive it.
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.listening = true;
    } catch (err) {
      await client.end().catch(() => undefined);
      this.lost(err);
    }
  }

  private lost(err: unknown): void {
    if (this.closed) return;
    if (this.listening) this.logger.warn('api key cache lost its listener; bypassing the cache', { err });
    this.listening = false;
    this.evictAll();
    this.client = null;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), 2000);
    this.retry.unref();
  }
}
