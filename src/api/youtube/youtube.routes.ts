import Router from '@koa/router';
import { findConnectedChannel, findMatchingProjects, listVideos } from '../../db/youtube';
import { VIDEO_ID_PATTERN } from '../../shared/youtube-video-id';
import { UnmirroredLookups } from './unmirrored-lookup';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, workspaceCaller } from '../middleware/authenticate';
import { queryOf, validateQuery } from '../middleware/validate';
import { presentVideo } from './video-presenter';
import { listVideosQuerySchema } from './youtube.schema';

/**
 * GET /v1/dubbing/youtube/videos (docs/design.md#youtube): three reads of the mirror (the
 * connection, the page, the caller's matching projects); only an exact video id the mirror lacks
 * is looked up (UnmirroredLookups), and the `YouTube-Lookup` header says what happened.
 */
export function youtubeRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  const { lookupMissTtlSeconds: missTtlSeconds, lookupsPerHour: perHour } = deps.config.youtube;
  const lookups = deps.youtube ? new UnmirroredLookups(db, deps.youtube, { missTtlSeconds, perHour }) : null;
  router.get('/v1/dubbing/youtube/videos', authenticate(deps), requirePermission('dubbing:read'), validateQuery(listVideosQuerySchema), async (ctx) => {
    const { workspaceId } = workspaceCaller(ctx);
    const { channel_id: named, query, limit } = queryOf(ctx, listVideosQuerySchema);
    const channel = await findConnectedChannel(deps.pool, workspaceId, named);
    if (!channel) {
      // Another workspace's channel looks exactly like an unknown one.
      if (named !== undefined) throw ApiError.notFound('channel', 'channel_id');
      ctx.body = { data: { connection_required: true, channel: null, items: [] } };
      return;
    }
    // An exact video id answers that video alone; a query that is no mirrored id (an 11-letter
    // word, or a video newer than the last sync) searches titles.
    const videoId = query !== undefined && VIDEO_ID_PATTERN.test(query) ? query : undefined;
    const search = { channelId: channel.id, limit };
    let videos = videoId === undefined ? [] : await listVideos(deps.pool, { ...search, videoId });
    if (videos.length === 0) videos = await listVideos(deps.pool, { ...search, query });
    if (videoId !== undefined && videos.length === 0 && lookups) {
      const lookup = await lookups.lookUp(workspaceId, channel.id, videoId);
      ctx.set('YouTube-Lookup', lookup);
      if (lookup === 'found') videos = await listVideos(deps.pool, { ...search, videoId });
    }
    const matches = await findMatchingProjects(
      deps.pool,
      workspaceId,
      videos.map((v) => v.id),
    );
    const items = videos.map((video) => presentVideo(video, matches.get(video.id)));
    ctx.body = { data: { connection_required: false, channel: { channel_id: channel.id, title: channel.title }, items } };
  });
  return router;
}
