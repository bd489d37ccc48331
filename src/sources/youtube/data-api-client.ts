import { parseChannelRef } from './channel-ref';
import { isVideoId } from './video-id';
import { toChannel, toUpload, toVideo, type WireChannel, type WirePlaylistItem, type WireVideo, type YouTubeChannel, type YouTubeVideo } from './data-api-resources';
import { YouTubeApiError, errorFromFailure, errorFromResponse } from './youtube-api-error';

export type { YouTubeChannel, YouTubeVideo } from './data-api-resources';

// YouTube Data API v3 with an API key. Only the three 1-unit list calls are used (channels,
// playlistItems, videos): a channel's uploads playlist gives every video id, newest first, for a
// fraction of what search.list (100 units a call) would cost, and without its fuzziness.

export interface YouTubeDataApiOptions {
  apiKey: string;
  /** e.g. https://www.googleapis.com/youtube/v3 (config.youtube.apiBaseUrl). */
  baseUrl: string;
  /** Per call, including reading the body. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface UploadsPage {
  videoIds: { id: string; publishedAt: string }[];
  /** null on the last page. */
  nextPageToken: string | null;
}

type Endpoint = 'channels' | 'playlistItems' | 'videos';

/** The most the list endpoints return or accept per call. */
const MAX_PER_CALL = 50;

export class YouTubeDataApi {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(options: YouTubeDataApiOptions) {
    this.apiKey = options.apiKey;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** A channel from a UC… id, an @handle, or a channel URL. */
  async resolveChannel(ref: string): Promise<YouTubeChannel> {
    const parsed = parseChannelRef(ref);
    if (!parsed) {
      throw new YouTubeApiError(null, 'invalidChannelRef', 'Not a YouTube channel id, @handle or channel URL', false);
    }
    const filter: Record<string, string> = 'id' in parsed ? { id: parsed.id } : { forHandle: parsed.handle };
    const body = await this.list<{ items?: WireChannel[] }>('channels', { part: 'snippet,contentDetails', ...filter });
    // No match is a 200 without `items` at all, not a 404.
    const channel = body.items?.[0];
    if (!channel) {
      throw new YouTubeApiError(404, 'channelNotFound', `No YouTube channel for ${'id' in parsed ? parsed.id : parsed.handle}`, false);
    }
    return toChannel(channel);
  }

  /** One page (up to 50) of a playlist's video ids, in the playlist's order (newest first for uploads). */
  async listUploads(playlistId: string, pageToken?: string): Promise<UploadsPage> {
    const body = await this.list<{ items?: WirePlaylistItem[]; nextPageToken?: string }>('playlistItems', {
      part: 'contentDetails',
      playlistId,
      maxResults: String(MAX_PER_CALL),
      ...(pageToken ? { pageToken } : {}),
    });
    const videoIds = (body.items ?? []).map(toUpload).filter((upload) => upload !== null);
    return { videoIds, nextPageToken: body.nextPageToken || null };
  }

  /** The videos the key can see among `ids`; ids the API does not return are simply absent. */
  async getVideos(ids: string[]): Promise<YouTubeVideo[]> {
    const unique = [...new Set(ids)];
    // Checked because ids are joined with ',' into one parameter: a stray comma would ask for more.
    const bad = unique.find((id) => !isVideoId(id));
    if (bad !== undefined) throw new YouTubeApiError(null, 'invalidVideoId', `Not a YouTube video id: ${JSON.stringify(bad)}`, false);
    const videos: YouTubeVideo[] = [];
    for (let start = 0; start < unique.length; start += MAX_PER_CALL) {
      const batch = unique.slice(start, start + MAX_PER_CALL);
      const body = await this.list<{ items?: WireVideo[] }>('videos', {
        part: 'snippet,contentDetails,status',
        // No maxResults: videos.list does not accept it together with id.
        id: batch.join(','),
      });
      videos.push(...(body.items ?? []).map(toVideo));
    }
    return videos;
  }

  private async list<T>(endpoint: Endpoint, params: Record<string, string>): Promise<T> {
    const url = new URL(`${this.baseUrl}/${endpoint}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    url.searchParams.set('key', this.apiKey);

    let status: number;
    let text: string;
    try {
      const response = await this.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs) });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw errorFromFailure(endpoint, error, this.timeoutMs, this.apiKey);
    }
    if (status < 200 || status > 299) throw errorFromResponse(endpoint, status, text, this.apiKey);
    try {
      return JSON.parse(text) as T;
    } catch {
      // A 200 that is not JSON comes from something in between (a captive portal, a broken proxy).
      throw new YouTubeApiError(status, 'invalidResponse', `YouTube ${endpoint}.list answered ${status} without JSON`);
    }
  }
}

/** The client for this deployment, or null when no API key is configured (YouTube disabled). */
export function youTubeDataApiFromConfig(youtube: { apiKey: string | null; apiBaseUrl: string }): YouTubeDataApi | null {
  return youtube.apiKey ? new YouTubeDataApi({ apiKey: youtube.apiKey, baseUrl: youtube.apiBaseUrl }) : null;
}
