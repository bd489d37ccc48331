import { Client } from 'pg';
import { API_KEY_CHANNEL, type ApiKeyWithWorkspace } from '../db/api-keys';
import type { Logger } from '../logger';

/**
 * Key rows cached in process, so an authenticated request does not pay a database round trip
 * for its key. Revocations arrive over LISTEN/NOTIFY and evict at once; while the listening
 * connection is down the cache is bypassed entirely, so a missed notification can never keep a
 * revoked key alive. The TTL is only a backstop.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { row: ApiKeyWithWorkspace; at: number }>();
  private client: Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
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

  set(row: ApiKeyWithWorkspace, now = Date.now()): void {
    if (!this.listening) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(row.id, { row, at: now });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.listening = false;
    this.entries.clear();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'dubbing-api-key-cache' });
    client.on('notification', (message) => {
      if (message.channel === API_KEY_CHANNEL && message.payload) this.entries.delete(message.payload);
    });
    client.on('error', (err) => this.lost(err));
    client.on('end', () => this.lost(new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_CHANNEL}`);
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
    this.entries.clear();
    this.client = null;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), 2000);
    this.retry.unref();
  }
}
