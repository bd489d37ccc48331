import type { ListedVideo, MatchingProjectRow } from '../../db/youtube';

// Pages of a channel's title search (or of its newest videos), keyed by channel, query and limit,
// with the channel's mirror_version they were read at. A trigger bumps that version in the same
// transaction as any write to the channel's mirror, so a page whose version still matches is
// exactly what the search would answer now: a repeated search costs one key-lookup statement
// instead of the title scan.
// Beside a page, each workspace that searched it keeps its matching projects with its YouTube
// projects version (workspace_youtube_versions, bumped the same way by the projects' triggers):
// while that version holds, the statement skips probing the projects for every video of the page.
// The connection and both versions are read on every request. Each API process keeps its own
// copy, bounded, least recently used out.

/** A workspace's matching projects for a remembered page, as of its YouTube projects version. */
export interface RememberedMatches {
  readonly projectsVersion: number;
  readonly matches: ReadonlyMap<string, MatchingProjectRow>;
}

export interface RememberedPage {
  readonly version: number;
  readonly videos: readonly ListedVideo[];
  readonly videoIds: readonly string[];
  /** By workspace id; a page of a popular channel is searched by many workspaces, so it is bounded too. */
  readonly matches: Map<string, RememberedMatches>;
}

export class VideoPageCache {
  private readonly entries = new Map<string, RememberedPage>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxWorkspacesPerPage = 100,
  ) {}

  static key(channelId: string, query: string | undefined, limit: number): string {
    // A query is any text, so it goes last: channel ids and limits never hold a newline.
    return `${channelId}\n${limit}\n${query ?? ''}${query === undefined ? '' : '\n'}`;
  }

  get(key: string): RememberedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map iteration order is insertion order: re-insert on use, so the oldest is least recent.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Remembers a page read at `version` (none of any workspace's matches yet); undefined when the memory is off. */
  set(key: string, version: number, videos: readonly ListedVideo[]): RememberedPage | undefined {
    if (this.maxEntries === 0) return undefined;
    const entry: RememberedPage = { version, videos, videoIds: videos.map((v) => v.id), matches: new Map() };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) evictOldest(this.entries);
    return entry;
  }

  /** Remembers a workspace's matches for a page, replacing those of an older projects version. */
  rememberMatches(page: RememberedPage, workspaceId: string, remembered: RememberedMatches): void {
    page.matches.delete(workspaceId);
    page.matches.set(workspaceId, remembered);
    if (page.matches.size > this.maxWorkspacesPerPage) evictOldest(page.matches);
  }
}

function evictOldest(map: Map<string, unknown>): void {
  const oldest = map.keys().next().value;
  if (oldest !== undefined) map.delete(oldest);
}
