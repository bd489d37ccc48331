import Router from '@koa/router';
import type { Db } from '../../db/create-db';
import { findConnectedChannel, listVideoPage, VIDEO_ID_PATTERN, videoReads, type VideoPage, type VideoPageRequest, type VideoReads } from '../../db/youtube';
import { VideoPageCache } from './video-page-cache';
import { ChannelCache } from './channel-cache';
import { UnmirroredLookups, type LookupOutcome } from './unmirrored-lookup';
import { ApiError } from '../api-error';
import type { AppDeps } from '../app-deps';
import { authenticate, requirePermission, type AuthContext } from '../middleware/authenticate';
import { validateQuery } from '../middleware/validate';
import { renderVideoList } from './video-presenter';
import { listVideosQuerySchema, type ListVideosQuery } from './youtube.schema';

/**
 * GET /v1/dubbing/youtube/videos (docs/design.md#youtube): served from the mirror, so a title search costs no
 * Data API quota; only an exact video id the mirror does not have yet is looked up (1 unit),
 * within the workspace's hourly budget and unless it was looked up in vain lately
 * (UnmirroredLookups); the `YouTube-Lookup` header says which happened.
 * An exact video id is one prepared statement of key lookups (the video, the connection, its
 * project). A search is two: the page (listVideoPage) and its context (reads.pageContext). A page
 * is remembered with the mirror's version (VideoPageCache), so a repeated search costs the
 * context statement alone, which also checks that version. The exact-id and context statements
 * are shared by the requests that reach them in the same turn of the event loop (batchedRead).
 * The channel is remembered per process as a hint only: the connection is checked on every request.
 */
export function youtubeRoutes(deps: AppDeps): Router {
  const { db } = deps;
  const router = new Router();
  const channels = new ChannelCache();
  const pages = new VideoPageCache(deps.config.youtube.videoPageCacheEntries);
  const reads = videoReads(db);
  const { lookupMissTtlSeconds: missTtlSeconds, lookupsPerHour: perHour } = deps.config.youtube;
  const lookups = deps.youtube ? new UnmirroredLookups(db, deps.youtube, { missTtlSeconds, perHour }) : null;
  router.get('/v1/dubbing/youtube/videos', authenticate(deps), requirePermission('dubbing:read'), validateQuery(listVideosQuerySchema), async (ctx) => {
    const caller = ctx.state.auth as AuthContext;
    const query = ctx.state.query as ListVideosQuery;
    const primary = query.channel_id === undefined;
    const loadChannel = () => findConnectedChannel(db, caller.workspaceId, query.channel_id);

    const first = await channels.get(caller.workspaceId, query.channel_id, loadChannel);
    let channel = first.channel;
    let page = channel ? await videoPage(db, reads, pages, lookups, { workspaceId: caller.workspaceId, channelId: channel.id, primary, query }) : undefined;
    if (channel && first.remembered && !page!.context.connected) {
      // The remembered connection is gone (or another channel became the primary): ask afresh.
      ({ channel } = await channels.get(caller.workspaceId, query.channel_id, loadChannel, { fresh: true }));
      page = channel ? await videoPage(db, reads, pages, lookups, { workspaceId: caller.workspaceId, channelId: channel.id, primary, query }) : undefined;
    }
    if (!channel || !page?.context.connected) {
      // Another workspace's channel looks exactly like an unknown one.
      if (query.channel_id !== undefined) throw ApiError.notFound('channel', 'channel_id');
      ctx.body = { data: { connection_required: true, channel: null, items: [] } };
      return;
    }
    if (page.lookup) ctx.set('YouTube-Lookup', page.lookup);
    ctx.type = 'application/json';
    ctx.body = renderVideoList({ channel_id: channel.id, title: channel.title }, page.videos, page.context.matches);
  });
  return router;
}

interface PageRequest {
  workspaceId: string;
  channelId: string;
  primary: boolean;
  query: ListVideosQuery;
}

/**
 * The page a query asks for, with its context. An exact video id answers that video alone; a
 * query that is no mirrored id (an 11-letter word, or a video newer than the last sync) searches
 * titles, and an id found nowhere is looked up with the Data API once.
 */
async function videoPage(db: Db, reads: VideoReads, pages: VideoPageCache, lookups: UnmirroredLookups | null, request: PageRequest): Promise<VideoPage & { lookup?: LookupOutcome }> {
  const { workspaceId, channelId, primary, query } = request;
  const page = { workspaceId, channelId, primary, limit: query.limit };
  const videoId = query.query !== undefined && VIDEO_ID_PATTERN.test(query.query) ? query.query : undefined;
  if (videoId !== undefined) {
    const exact = await reads.channelVideo({ ...page, videoId });
    if (!exact.context.connected || exact.videos.length > 0) return exact;
  }
  const found = await searchPage(db, reads, pages, page, query.query);
  if (videoId !== undefined && found.context.connected && found.videos.length === 0 && lookups) {
    const lookup = await lookups.lookUp(workspaceId, channelId, videoId);
    return { ...(lookup === 'found' ? await reads.channelVideo({ ...page, videoId }) : found), lookup };
  }
  return found;
}

/**
 * A title search (or the newest videos): remembered while the channel's mirror is unchanged, and
 * its matching projects while the workspace's YouTube projects are.
 */
async function searchPage(db: Db, reads: VideoReads, pages: VideoPageCache, page: VideoPageRequest, query: string | undefined): Promise<VideoPage> {
  const key = VideoPageCache.key(page.channelId, query, page.limit);
  const remembered = pages.get(key);
  if (remembered) {
    const known = remembered.matches.get(page.workspaceId);
    const context = await reads.pageContext({ ...page, videoIds: remembered.videoIds, knownProjectsVersion: known?.projectsVersion ?? null });
    if (!context.connected) return { videos: [], context: { ...context, matches: new Map() } };
    const matches = context.matches ?? known?.matches;
    if (context.mirrorVersion === remembered.version && matches) {
      if (context.matches) pages.rememberMatches(remembered, page.workspaceId, { projectsVersion: context.projectsVersion, matches: context.matches });
      return { videos: remembered.videos, context: { connected: true, mirrorVersion: context.mirrorVersion, matches } };
    }
  }
  const { videos, mirrorVersion } = await listVideoPage(db, { channelId: page.channelId, query, limit: page.limit });
  const context = await reads.pageContext({ ...page, videoIds: videos.map((v) => v.id), knownProjectsVersion: null });
  const matches = context.matches ?? new Map();
  if (context.connected && mirrorVersion !== null) {
    const entry = pages.set(key, mirrorVersion, videos);
    if (entry) pages.rememberMatches(entry, page.workspaceId, { projectsVersion: context.projectsVersion, matches });
  }
  return { videos, context: { connected: context.connected, mirrorVersion: context.mirrorVersion, matches } };
}
