import type { ListedVideo } from '../../db/youtube';

// Pages of a channel's title search (or of its newest videos), keyed by channel, query and limit,
// with the channel's mirror_version they were read at. A trigger bumps that version in the same
// transaction as any write to the channel's mirror, so a page whose version still matches is
// exactly what the search would answer now: a repeated search costs one key-lookup statement
// instead of the title scan. Only the videos are kept; the matching projects and the connection
// are read on every request. Each API process keeps its own copy, bounded, least recently used out.

interface Entry {
  version: number;
  videos: readonly ListedVideo[];
}

export class VideoPageCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries: number) {}

  static key(channelId: string, query: string | undefined, limit: number): string {
    // A query is any text, so it goes last: channel ids and limits never hold a newline.
    return `${channelId}\n${limit}\n${query ?? ''}${query === undefined ? '' : '\n'}`;
  }

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map iteration order is insertion order: re-insert on use, so the oldest is least recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, version: number, videos: readonly ListedVideo[]): void {
    if (this.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { version, videos });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
