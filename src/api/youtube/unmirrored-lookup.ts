import type { Db } from '../../db/create-db';
import { upsertVideos } from '../../db/youtube';
import { claimVideoLookup, rememberLookupMiss } from '../../db/youtube-lookups';
import { mirroredVideo, type VideoLookup } from '../../sources/youtube/video-lookup';

/**
 * An exact video id the mirror lacks costs a Data API call from the whole service's quota, so it
 * is looked up only within the workspace's hourly budget and unless it was looked up in vain
 * within the TTL (docs/rate-limits.md#youtube-lookups). `found`: mirrored now; `not_found`: a
 * live lookup found nothing of this channel; `remembered_miss` / `budget_exhausted`: no call.
 */
export type LookupOutcome = 'found' | 'not_found' | 'remembered_miss' | 'budget_exhausted';

export class UnmirroredLookups {
  /** Concurrent searches for the same id in this process share one claim and one call. */
  private readonly inFlight = new Map<string, Promise<LookupOutcome>>();

  constructor(
    private readonly db: Db,
    private readonly youtube: VideoLookup,
    private readonly settings: { missTtlSeconds: number; perHour: number },
  ) {}

  lookUp(workspaceId: string, channelId: string, videoId: string): Promise<LookupOutcome> {
    const key = `${channelId} ${videoId}`;
    let outcome = this.inFlight.get(key);
    if (!outcome) {
      outcome = this.run(workspaceId, channelId, videoId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, outcome);
    }
    return outcome;
  }

  private async run(workspaceId: string, channelId: string, videoId: string): Promise<LookupOutcome> {
    const { missTtlSeconds, perHour } = this.settings;
    const claim = await claimVideoLookup(this.db, { workspaceId, channelId, videoId, missTtlSeconds, perHour });
    if (claim !== 'granted') return claim;
    const [found] = await this.youtube.getVideos([videoId]);
    if (!found || found.channelId !== channelId) {
      await rememberLookupMiss(this.db, { videoId, ownerChannelId: found?.channelId ?? null, missTtlSeconds });
      return 'not_found';
    }
    await upsertVideos(this.db, [mirroredVideo(found)]);
    return 'found';
  }
}
