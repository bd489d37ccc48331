import Router from '@koa/router';
import type { Db } from '../../db/create-db';
import { findConnectedChannel, listChannelVideos, upsertVideos, VIDEO_ID_PATTERN } from '../../db/youtube';
import { ChannelCache } from './channel-cache';
import type { VideoLookup } from '../../sources/youtube/video-lookup';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, type AuthContext } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { presentVideo } from './video-presenter';
import { listVideosQuerySchema, type ListVideosQuery } from './youtube.schema';

/**
 * GET /v1/dubbing/youtube/videos (spec 4.2): served from the mirror (one statement per request,
 * the channel lookup cached for seconds), so a title search costs no Data API quota. Only an exact video id the mirror does not have yet is
 * looked up (1 unit).
 */
export function youtubeRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  const channels = new ChannelCache();
  router.get('/v1/dubbing/youtube/videos', authenticate(db, deps.keyCache), requirePermission('dubbing:read'), validateQuery(listVideosQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
    const query = ctx.state.query as ListVideosQuery;
    const loadChannel = () => findConnectedChannel(db, caller.workspaceId, query.channel_id);
    const first = await channels.get(caller.workspaceId, query.channel_id, loadChannel);
    let channel = first.channel;
    const page = (id: string) => listChannelVideos(db, { workspaceId: caller.workspaceId, channelId: id, primary: query.channel_id === undefined, query: query.query, limit: query.limit });
    let videos = channel ? await page(channel.id) : [];
    if (channel && first.remembered && videos.length === 0) {
      // Empty page: a truly empty result, or the remembered connection is gone. Ask afresh.
      ({ channel } = await channels.get(caller.workspaceId, query.channel_id, loadChannel, { fresh: true }));
      videos = channel ? await page(channel.id) : [];
    }
    if (!channel) {
      // Another workspace's channel looks exactly like an unknown one.
      if (query.channel_id !== undefined) throw ApiError.notFound('channel', 'channel_id');
      ctx.body = { data: { connection_required: true, channel: null, items: [] } };
      return;
    }
    if (videos.length === 0 && query.query !== undefined && VIDEO_ID_PATTERN.test(query.query) && deps.youtube) {
      if (await lookUpUnmirrored(db, deps.youtube, channel.id, query.query)) videos = await page(channel.id);
    }
    ctx.body = {
      data: {
        connection_required: false,
        channel: { channel_id: channel.id, title: channel.title },
        items: videos.map((video) => presentVideo(video, video.match)),
      },
    };
  });
  return router;
}

/** A video newer than the last sync: fetched once, mirrored if it belongs to this channel. */
async function lookUpUnmirrored(db: Db, youtube: VideoLookup, channelId: string, videoId: string): Promise<boolean> {
  const [found] = await youtube.getVideos([videoId]);
  if (!found || found.channelId !== channelId) return false;
  await upsertVideos(db, [{
    id: found.id,
    channel_id: found.channelId,
    title: found.title,
    description: found.description,
    published_at: new Date(found.publishedAt),
    duration_seconds: found.durationSeconds,
    availability: found.availability,
    unavailable_reason: found.unavailableReason,
  }]);
  return true;
}
