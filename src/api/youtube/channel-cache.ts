import type { YoutubeChannel } from '../../db/youtube';

/**
 * Which channel a workspace's video list shows (the named one, or its primary), remembered per
 * API process so a request needs no statement for it. A remembered channel is only a hint: every
 * request checks that the connection still holds (videoReads.pageContext), and re-reads it uncached when
 * not, so a disconnect or a new primary shows on the next request.
 * Entries are keyed by the caller's workspace, and expire after `ttlMs` anyway.
 */
export class ChannelCache {
  private readonly entries = new Map<string, { channel: Pick<YoutubeChannel, 'id' | 'title'> | undefined; at: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** The remembered channel (a hint), or the one `load` reads. `fresh` skips the memory. */
  async get(
    workspaceId: string,
    channelId: string | undefined,
    load: () => Promise<Pick<YoutubeChannel, 'id' | 'title'> | undefined>,
    options: { fresh?: boolean; now?: number } = {},
  ): Promise<{ channel: Pick<YoutubeChannel, 'id' | 'title'> | undefined; remembered: boolean }> {
    const now = options.now ?? Date.now();
    const key = `${workspaceId}/${channelId ?? ''}`;
    const hit = this.entries.get(key);
    if (!options.fresh && hit?.channel && now - hit.at < this.ttlMs) return { channel: hit.channel, remembered: true };
    const channel = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear(); // bounded; refills in a few reads
    this.entries.set(key, { channel, at: now });
    return { channel, remembered: false };
  }
}
