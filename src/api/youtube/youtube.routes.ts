import Router from '@koa/router';
import type { Db } from '../../db/create-db';
import { findConnectedChannel, findPageContext, listVideoPage, upsertVideos, VIDEO_ID_PATTERN } from '../../db/youtube';
import { ChannelCache } from './channel-cache';
import type { VideoLookup } from '../../sources/youtube/video-lookup';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, type AuthContext } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { presentVideo } from './video-presenter';
import { listVideosQuerySchema, type ListVideosQuery } from './youtube.schema';

/**
 * GET /v1/dubbing/youtube/videos (spec 4.2): served from the mirror, so a title search costs no
 * Data API quota; only an exact video id the mirror does not have yet is looked up (1 unit).
 * Two statements per request: the page (the same query a bare server would run) and its context
 * (connection still held, matching projects; prepared). The channel is remembered per process as
 * a hint only: the context statement checks it on every request.
 */
export function youtubeRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  const channels = new ChannelCache();
  router.get('/v1/dubbing/youtube/videos', authenticate(db, deps.keyCache), requirePermission('dubbing:read'), validateQuery(listVideosQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
    const query = ctx.state.query as ListVideosQuery;
    const primary = query.channel_id === undefined;
    const loadChannel = () => findConnectedChannel(db, caller.workspaceId, query.channel_id);

    const pageOf = async (channelId: string) => {
      let videos = await listVideoPage(db, { channelId, query: query.query, limit: query.limit });
      let context = await findPageContext(db, { workspaceId: caller.workspaceId, channelId, primary, videoIds: videos.map((v) => v.id) });
      if (context.connected && videos.length === 0 && query.query !== undefined && VIDEO_ID_PATTERN.test(query.query) && deps.youtube) {
        if (await lookUpUnmirrored(db, deps.youtube, channelId, query.query)) {
          videos = await listVideoPage(db, { channelId, query: query.query, limit: query.limit });
          context = await findPageContext(db, { workspaceId: caller.workspaceId, channelId, primary, videoIds: videos.map((v) => v.id) });
        }
      }
      return { videos, context };
    };

    const first = await channels.get(caller.workspaceId, query.channel_id, loadChannel);
    let channel = first.channel;
    let page = channel ? await pageOf(channel.id) : undefined;
    if (channel && first.remembered && !page!.context.connected) {
      // The remembered connection is gone (or another channel became the primary): ask afresh.
      ({ channel } = await channels.get(caller.workspaceId, query.channel_id, loadChannel, { fresh: true }));
      page = channel ? await pageOf(channel.id) : undefined;
    }
    if (!channel || !page?.context.connected) {
      // Another workspace's channel looks exactly like an unknown one.
      if (query.channel_id !== undefined) throw ApiError.notFound('channel', 'channel_id');
      ctx.body = { data: { connection_required: true, channel: null, items: [] } };
      return;
    }
    const { videos, context } = page;
    ctx.body = {
      data: {
        connection_required: false,
        channel: { channel_id: channel.id, title: channel.title },
        items: videos.map((video) => presentVideo(video, context.matches.get(video.id))),
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
