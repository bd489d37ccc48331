import Router from '@koa/router';
import type { Db } from '../../db/create-db';
import { findConnectedChannel, newestProjectsForVideos, searchVideos, upsertVideos, VIDEO_ID_PATTERN, type ConnectedChannel } from '../../db/youtube';
import type { VideoLookup } from '../../sources/youtube/video-lookup';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, type AuthContext } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { presentVideo } from './video-presenter';
import { listVideosQuerySchema, type ListVideosQuery } from './youtube.schema';

/**
 * GET /v1/dubbing/youtube/videos (spec 4.2): served from the mirror, so a title search costs no
 * Data API quota. Only an exact video id the mirror does not have yet is looked up (1 unit).
 */
export function youtubeRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  router.get('/v1/dubbing/youtube/videos', authenticate(db, deps.keyCache), requirePermission('dubbing:read'), validateQuery(listVideosQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
    const query = ctx.state.query as ListVideosQuery;
    const channel = await findConnectedChannel(db, caller.workspaceId, query.channel_id);
    if (!channel) {
      // Another workspace's channel looks exactly like an unknown one.
      if (query.channel_id !== undefined) throw ApiError.notFound('channel', 'channel_id');
      ctx.body = { data: { connection_required: true, channel: null, items: [] } };
      return;
    }
    let videos = await searchVideos(db, { channelId: channel.id, limit: query.limit, query: query.query });
    if (videos.length === 0 && query.query !== undefined && VIDEO_ID_PATTERN.test(query.query) && deps.youtube) {
      videos = await lookUpUnmirrored(db, deps.youtube, channel, query.query);
    }
    const matches = new Map((await newestProjectsForVideos(db, caller.workspaceId, videos.map((v) => v.id))).map((m) => [m.youtube_video_id, m]));
    ctx.body = {
      data: {
        connection_required: false,
        channel: { channel_id: channel.id, title: channel.title },
        items: videos.map((video) => presentVideo(video, matches.get(video.id))),
      },
    };
  });
  return router;
}

/** A video newer than the last sync: fetched once, mirrored if it belongs to this channel. */
async function lookUpUnmirrored(db: Db, youtube: VideoLookup, channel: ConnectedChannel, videoId: string) {
  const [found] = await youtube.getVideos([videoId]);
  if (!found || found.channelId !== channel.id) return [];
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
  return searchVideos(db, { channelId: channel.id, limit: 1, query: videoId });
}
