import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local YouTube Data API v3 (this machine has no internet): the three list endpoints the
// product calls, with Google's parameters, response shapes and error bodies, over real HTTP on
// 127.0.0.1. Tests own the state. Unlike the real API with a bare key, private videos are still
// served (with privacyStatus 'private') so tests can drive every availability rule.

export type FakeEndpoint = 'channels' | 'playlistItems' | 'videos';
export type FakeFailure = 'quotaExceeded' | 'rateLimitExceeded' | 'userRateLimitExceeded' | 'forbidden' | 'backendError' | 'keyInvalid';

export const FAKE_YOUTUBE_API_KEY = 'AIzaFake-test-key_0123456789abcdefghij';

export interface FakeChannelInput {
  id: string;
  title: string;
  /** With or without '@'; served lowercased in snippet.customUrl, as YouTube does. */
  handle?: string;
  uploadsPlaylistId?: string;
  description?: string;
}

export interface FakeVideoInput {
  id: string;
  title: string;
  description?: string;
  publishedAt: string;
  /** null → no contentDetails.duration at all. Live and upcoming broadcasts are served as 'P0D'. */
  durationSeconds: number | null;
  privacyStatus?: 'public' | 'unlisted' | 'private';
  uploadStatus?: 'processed' | 'uploaded' | 'failed' | 'rejected' | 'deleted';
  rejectionReason?: string;
  failureReason?: string;
  liveBroadcastContent?: 'none' | 'live' | 'upcoming';
  embeddable?: boolean;
  ageRestricted?: boolean;
  regionRestriction?: { allowed?: string[]; blocked?: string[] };
}

export interface FakeCall {
  endpoint: string;
  /** Every query parameter as received, key included. */
  params: Record<string, string>;
  status: number;
}

export interface FakeYouTube {
  /** e.g. http://127.0.0.1:PORT/youtube/v3 */
  baseUrl: string;
  /** Calls with another key (or none) are refused the way Google refuses them. null accepts any. */
  requiredKey: string | null;
  calls: FakeCall[];
  addChannel(channel: FakeChannelInput): void;
  /** Newest first: the video goes to the top of the channel's uploads playlist. */
  addVideo(channelId: string, video: FakeVideoInput): void;
  updateVideo(id: string, patch: Partial<Omit<FakeVideoInput, 'id'>>): void;
  removeVideo(id: string): void;
  /** The next `n` calls to `endpoint` fail with Google's answer for `reason`. */
  failNext(endpoint: FakeEndpoint, n: number, reason: FakeFailure): void;
  close(): Promise<void>;
}

interface Channel extends Required<Omit<FakeChannelInput, 'handle'>> {
  handle: string | null;
}
type Video = FakeVideoInput & { channelId: string };
type Answer = { status: number; body: unknown };

const ENDPOINTS: readonly string[] = ['channels', 'playlistItems', 'videos'];
const PARTS: Record<FakeEndpoint, readonly string[]> = {
  channels: ['id', 'snippet', 'contentDetails'],
  playlistItems: ['id', 'snippet', 'contentDetails', 'status'],
  videos: ['id', 'snippet', 'contentDetails', 'status'],
};
const QUOTA_MESSAGE = 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';

export async function startFakeYouTubeDataApi(options: { requiredKey?: string | null } = {}): Promise<FakeYouTube> {
  const channels = new Map<string, Channel>();
  const playlists = new Map<string, { channelId: string; videoIds: string[] }>();
  const videos = new Map<string, Video>();
  const failures: Record<FakeEndpoint, { reason: FakeFailure; left: number }[]> = { channels: [], playlistItems: [], videos: [] };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params = Object.fromEntries(url.searchParams);
    const endpoint = url.pathname.startsWith('/youtube/v3/') ? url.pathname.slice('/youtube/v3/'.length) : '';
    if (req.method !== 'GET' || !ENDPOINTS.includes(endpoint)) {
      // Google's front end answers unknown paths with an HTML page, not a JSON error.
      fake.calls.push({ endpoint: url.pathname, params, status: 404 });
      res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' }).end('<!DOCTYPE html><title>Error 404 (Not Found)!!1</title>');
      return;
    }
    const answer = handle(endpoint as FakeEndpoint, url.searchParams);
    fake.calls.push({ endpoint, params, status: answer.status });
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(answer.body, null, 2));
  });

  function handle(endpoint: FakeEndpoint, query: URLSearchParams): Answer {
    const key = query.get('key');
    if (fake.requiredKey !== null && key === null) {
      return googleError(403, 'forbidden', 'global', 'The request is missing a valid API key.', 'PERMISSION_DENIED');
    }
    if (fake.requiredKey !== null && key !== fake.requiredKey) return failure('keyInvalid');
    const pending = failures[endpoint][0];
    if (pending) {
      if (--pending.left <= 0) failures[endpoint].shift();
      return failure(pending.reason);
    }
    const part = query.get('part');
    if (!part) return googleError(400, 'required', 'global', 'Required parameter: part', undefined, 'part');
    const parts = part.split(',').map((p) => p.trim());
    const unknown = parts.find((p) => !PARTS[endpoint].includes(p));
    if (unknown !== undefined) {
      return googleError(400, 'unknownPart', 'youtube.part', `'${unknown}'`, undefined, 'part');
    }
    if (endpoint === 'channels') return listChannels(query, new Set(parts));
    if (endpoint === 'playlistItems') return listPlaylistItems(query, new Set(parts));
    return listVideos(query, new Set(parts));
  }

  function listChannels(query: URLSearchParams, parts: Set<string>): Answer {
    const ids = query.get('id');
    const forHandle = query.get('forHandle');
    if ((ids === null) === (forHandle === null)) {
      return googleError(
        400,
        'missingRequiredParameter',
        'youtube.parameter',
        'No filter selected. Expected one of: forUsername, id, idParam, forHandle, mine, mySubscribers, categoryId, managedByMe, hl',
        undefined,
        'parameters.',
      );
    }
    const wanted = forHandle !== null ? normalizeHandle(forHandle) : null;
    const found = ids !== null ? ids.split(',').flatMap((id) => channels.get(id) ?? []) : [...channels.values()].filter((channel) => channel.handle === wanted);
    const items = found.map((channel) =>
      withEtag({
        kind: 'youtube#channel',
        id: channel.id,
        ...(parts.has('snippet')
          ? {
              snippet: {
                title: channel.title,
                description: channel.description,
                ...(channel.handle ? { customUrl: channel.handle } : {}),
                publishedAt: '2015-01-01T00:00:00Z',
                thumbnails: {},
                localized: { title: channel.title, description: channel.description },
              },
            }
          : {}),
        ...(parts.has('contentDetails') ? { contentDetails: { relatedPlaylists: { likes: '', uploads: channel.uploadsPlaylistId } } } : {}),
      }),
    );
    // A lookup that matches nothing is a 200 whose body has no `items` key at all.
    return ok(withEtag({ kind: 'youtube#channelListResponse', pageInfo: { totalResults: items.length, resultsPerPage: 5 }, ...(items.length ? { items } : {}) }));
  }

  function listPlaylistItems(query: URLSearchParams, parts: Set<string>): Answer {
    const playlistId = query.get('playlistId');
    if (playlistId === null) {
      return googleError(400, 'missingRequiredParameter', 'youtube.parameter', 'No filter selected. Expected one of: id, playlistId', undefined, 'parameters.');
    }
    const maxResults = query.get('maxResults') === null ? 5 : Number(query.get('maxResults'));
    if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > 50) {
      return googleError(400, 'invalidParameter', 'global', `Invalid value '${query.get('maxResults')}'. Values must be within the range: [0, 50]`, undefined, 'maxResults');
    }
    const playlist = playlists.get(playlistId);
    if (!playlist) {
      return googleError(404, 'playlistNotFound', 'youtube.playlistItem', "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.", undefined, 'playlistId');
    }
    const token = query.get('pageToken');
    const offset = token === null || token === '' ? 0 : decodePageToken(token, playlistId);
    if (offset === null) {
      return googleError(400, 'invalidPageToken', 'youtube.parameter', 'The request specifies an invalid page token.', undefined, 'pageToken');
    }
    const channel = channels.get(playlist.channelId);
    const page = playlist.videoIds.slice(offset, offset + maxResults);
    const items = page.map((videoId, index) => {
      const video = videos.get(videoId)!;
      return withEtag({
        kind: 'youtube#playlistItem',
        id: Buffer.from(`${playlistId}.${videoId}`).toString('base64url'),
        ...(parts.has('snippet')
          ? {
              snippet: {
                publishedAt: video.publishedAt,
                channelId: playlist.channelId,
                title: video.title,
                description: video.description ?? '',
                thumbnails: {},
                channelTitle: channel?.title ?? '',
                playlistId,
                position: offset + index,
                resourceId: { kind: 'youtube#video', videoId },
                videoOwnerChannelTitle: channel?.title ?? '',
                videoOwnerChannelId: playlist.channelId,
              },
            }
          : {}),
        ...(parts.has('contentDetails') ? { contentDetails: { videoId, videoPublishedAt: video.publishedAt } } : {}),
        ...(parts.has('status') ? { status: { privacyStatus: video.privacyStatus ?? 'public' } } : {}),
      });
    });
    const end = offset + page.length;
    return ok(
      withEtag({
        kind: 'youtube#playlistItemListResponse',
        ...(end < playlist.videoIds.length && maxResults > 0 ? { nextPageToken: encodePageToken(playlistId, end) } : {}),
        ...(offset > 0 ? { prevPageToken: encodePageToken(playlistId, Math.max(0, offset - maxResults)) } : {}),
        items,
        pageInfo: { totalResults: playlist.videoIds.length, resultsPerPage: maxResults },
      }),
    );
  }

  function listVideos(query: URLSearchParams, parts: Set<string>): Answer {
    const ids = query.get('id');
    if (ids === null) {
      return googleError(400, 'missingRequiredParameter', 'youtube.parameter', 'No filter selected. Expected one of: chart, id, myRating', undefined, 'parameters.');
    }
    const requested = [...new Set(ids.split(',').filter(Boolean))];
    if (requested.length > 50) {
      return googleError(400, 'invalidFilters', 'youtube.parameter', 'The request specifies more than 50 video ids.', undefined, 'id');
    }
    // Ids that do not exist (any more) are silently left out.
    const items = requested
      .flatMap((id) => videos.get(id) ?? [])
      .map((video) =>
        withEtag({
          kind: 'youtube#video',
          id: video.id,
          ...(parts.has('snippet')
            ? {
                snippet: {
                  publishedAt: video.publishedAt,
                  channelId: video.channelId,
                  title: video.title,
                  description: video.description ?? '',
                  thumbnails: {},
                  channelTitle: channels.get(video.channelId)?.title ?? '',
                  categoryId: '22',
                  liveBroadcastContent: video.liveBroadcastContent ?? 'none',
                  localized: { title: video.title, description: video.description ?? '' },
                },
              }
            : {}),
          ...(parts.has('contentDetails')
            ? {
                contentDetails: {
                  ...(video.durationSeconds === null ? {} : { duration: isLive(video) ? 'P0D' : toIso8601Duration(video.durationSeconds) }),
                  dimension: '2d',
                  definition: 'hd',
                  caption: 'false',
                  licensedContent: false,
                  ...(video.regionRestriction ? { regionRestriction: video.regionRestriction } : {}),
                  contentRating: video.ageRestricted ? { ytRating: 'ytAgeRestricted' } : {},
                  projection: 'rectangular',
                },
              }
            : {}),
          ...(parts.has('status')
            ? {
                status: {
                  uploadStatus: video.uploadStatus ?? 'processed',
                  ...(video.rejectionReason ? { rejectionReason: video.rejectionReason } : {}),
                  ...(video.failureReason ? { failureReason: video.failureReason } : {}),
                  privacyStatus: video.privacyStatus ?? 'public',
                  license: 'youtube',
                  embeddable: video.embeddable ?? true,
                  publicStatsViewable: true,
                  madeForKids: false,
                },
              }
            : {}),
        }),
      );
    return ok(withEtag({ kind: 'youtube#videoListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  const fake: FakeYouTube = {
    baseUrl: `http://127.0.0.1:${port}/youtube/v3`,
    requiredKey: options.requiredKey === undefined ? FAKE_YOUTUBE_API_KEY : options.requiredKey,
    calls: [],
    addChannel(input) {
      const channel: Channel = {
        id: input.id,
        title: input.title,
        handle: input.handle ? normalizeHandle(input.handle) : null,
        uploadsPlaylistId: input.uploadsPlaylistId ?? `UU${input.id.slice(2)}`,
        description: input.description ?? '',
      };
      channels.set(channel.id, channel);
      playlists.set(channel.uploadsPlaylistId, { channelId: channel.id, videoIds: [] });
    },
    addVideo(channelId, input) {
      const channel = channels.get(channelId);
      if (!channel) throw new Error(`fake YouTube: no channel ${channelId}`);
      if (videos.has(input.id)) throw new Error(`fake YouTube: video ${input.id} exists`);
      videos.set(input.id, { ...input, channelId });
      playlists.get(channel.uploadsPlaylistId)!.videoIds.unshift(input.id);
    },
    updateVideo(id, patch) {
      const video = videos.get(id);
      if (!video) throw new Error(`fake YouTube: no video ${id}`);
      videos.set(id, { ...video, ...patch });
    },
    removeVideo(id) {
      videos.delete(id);
      for (const playlist of playlists.values()) playlist.videoIds = playlist.videoIds.filter((videoId) => videoId !== id);
    },
    failNext(endpoint, n, reason) {
      if (n > 0) failures[endpoint].push({ reason, left: n });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}

function failure(reason: FakeFailure): Answer {
  switch (reason) {
    case 'quotaExceeded':
      return googleError(403, 'quotaExceeded', 'youtube.quota', QUOTA_MESSAGE);
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
      return googleError(403, reason, 'usageLimits', 'Rate Limit Exceeded');
    case 'forbidden':
      return googleError(403, 'forbidden', 'global', 'Forbidden');
    case 'backendError':
      return googleError(500, 'backendError', 'global', 'Internal error encountered.', 'INTERNAL');
    case 'keyInvalid': {
      // Today's answer to a bad key: a generic 'badRequest' with the cause in an ErrorInfo detail.
      const answer = googleError(400, 'badRequest', 'global', 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT');
      (answer.body as { error: Record<string, unknown> }).error.details = [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'youtube.googleapis.com' } },
      ];
      return answer;
    }
  }
}

function googleError(code: number, reason: string, domain: string, message: string, status?: string, location?: string): Answer {
  const detail = { message, domain, reason, ...(location ? { location, locationType: 'parameter' } : {}) };
  return { status: code, body: { error: { code, message, errors: [detail], ...(status ? { status } : {}) } } };
}

function ok(body: unknown): Answer {
  return { status: 200, body };
}

function withEtag<T extends object>(resource: T): T & { etag: string } {
  const etag = createHash('sha1').update(JSON.stringify(resource)).digest('base64url').slice(0, 27);
  return { ...resource, etag };
}

function normalizeHandle(handle: string): string {
  return `@${handle.replace(/^@/, '')}`.toLowerCase();
}

function isLive(video: Video): boolean {
  return video.liveBroadcastContent === 'live' || video.liveBroadcastContent === 'upcoming';
}

/** As YouTube writes it: PT#M#S under a day, P#DT#H#M#S from a day on. */
export function toIso8601Duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = Math.round((seconds % 60) * 1000) / 1000;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest || (!hours && !minutes) ? `${rest}S` : ''}`;
  return `P${days ? `${days}D` : ''}${time === '0S' && days ? '' : `T${time}`}`;
}

// Opaque to clients, like Google's: a page token only means something for its own playlist.
function encodePageToken(playlistId: string, offset: number): string {
  return `EAAa${Buffer.from(JSON.stringify([playlistId, offset])).toString('base64url')}`;
}

function decodePageToken(token: string, playlistId: string): number | null {
  try {
    const [tokenPlaylist, offset] = JSON.parse(Buffer.from(token.replace(/^EAAa/, ''), 'base64url').toString()) as [unknown, unknown];
    return tokenPlaylist === playlistId && Number.isInteger(offset) && (offset as number) >= 0 ? (offset as number) : null;
  } catch {
    return null;
  }
}
