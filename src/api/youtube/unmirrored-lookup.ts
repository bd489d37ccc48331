import type { Db } from '../../db/create-db';
import { upsertVideos } from '../../db/youtube';
import { claimVideoLookup, rememberLookupMiss } from '../../db/youtube-lookups';
import type { VideoLookup } from '../../sources/youtube/video-lookup';

// An exact video id the mirror lacks (a video newer than the last sync) costs a Data API call
// and the quota is the whole service's, so a lookup is made only when it can help: an id looked
// up in vain within the TTL is answered from the mirror, and each workspace has a budget of
// live lookups per hour (docs/rate-limits.md, "YouTube lookups").

/**
 * `found`: mirrored now; `not_found`: a live lookup found nothing of this channel;
 * `remembered_miss` / `budget_exhausted`: no call was made.
 */
export type LookupOutcome = 'found' | 'not_found' | 'remembered_miss' | 'budget_exhausted';

export interface UnmirroredLookupSettings {
  missTtlSeconds: number;
  perHour: number;
}

export class UnmirroredLookups {
  /** Concurrent searches for the same id in this process share one claim and one call. */
  private readonly inFlight = new Map<string, Promise<LookupOutcome>>();

  constructor(
    private readonly db: Db,
    private readonly youtube: VideoLookup,
    private readonly settings: UnmirroredLookupSettings,
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
    await upsertVideos(this.db, [{
      id: found.id,
      channel_id: found.channelId,
      title: found.title,
      description: found.description,
      published_at: new Date(found.publishedAt),
      duration_seconds: found.durationSeconds,
      availability: found.availability,
      unavailable_reason: found.unavailableReason,
    }]);
    return 'found';
  }
}
