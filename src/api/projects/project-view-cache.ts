// Rendered project bodies, keyed by project and the project's view_version. Triggers bump that
// version in the same transaction as any change the body shows, so a hit is never stale: a GET
// costs one primary-key read while nothing changes. Each API process keeps its own copy.

interface Entry {
  version: number;
  body: string;
  builtAt: number;
}

/** Re-sign a body's URLs at least this often even when nothing changed. */
const SIGNED_BODY_MAX_AGE_MS = 60_000;

export class ProjectViewCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  /** How long a body with signed URLs may be served again. */
  private readonly signedMaxAgeMs: number;

  /**
   * @param signedUrlTtlSeconds SIGNED_URL_TTL_SECONDS. A body with signed URLs (today the
   * transfer block) is served again for at most half of it (and at most 60 s), so a URL handed
   * out from the cache always has at least half its lifetime left, however short the TTL: with
   * a fixed 60 s, a 30 s TTL would hand out URLs that expired half a minute ago.
   */
  constructor(options: { signedUrlTtlSeconds: number; maxEntries?: number }) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.signedMaxAgeMs = Math.min(SIGNED_BODY_MAX_AGE_MS, (options.signedUrlTtlSeconds * 1000) / 2);
  }

  get(projectId: string, includeTransfer: boolean, version: number, now = Date.now()): string | undefined {
    const key = `${projectId}:${includeTransfer}`;
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    // Only the transfer block carries signed URLs; a body without it holds none.
    if (includeTransfer && now - entry.builtAt >= this.signedMaxAgeMs) return undefined;
    // Refresh recency: Map iteration order is insertion order, so re-insert on use.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  set(projectId: string, includeTransfer: boolean, version: number, body: string, now = Date.now()): void {
    const key = `${projectId}:${includeTransfer}`;
    this.entries.delete(key);
    this.entries.set(key, { version, body, builtAt: now });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
