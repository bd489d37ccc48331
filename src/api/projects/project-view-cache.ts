// Rendered project bodies, keyed by project and the project's view_version. Triggers bump that
// version in the same transaction as any change the body shows, so a hit is never stale: a GET
// costs one primary-key read while nothing changes. Each API process keeps its own copy.

interface Entry {
  version: number;
  body: string;
  builtAt: number;
}

/** Transfer blocks carry signed URLs; re-sign them at least this often even when unchanged. */
const TRANSFER_REFRESH_MS = 60_000;

export class ProjectViewCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 10_000) {}

  get(projectId: string, includeTransfer: boolean, version: number, now = Date.now()): string | undefined {
    const key = `${projectId}:${includeTransfer}`;
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    if (includeTransfer && now - entry.builtAt > TRANSFER_REFRESH_MS) return undefined;
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
