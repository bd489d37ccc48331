import type { Config } from '../../config';
import { youTubeDataApiFromConfig, type YouTubeDataApi } from './data-api-client';

export type YouTubeClient = YouTubeDataApi;

/** For the console: the configured client, or a clear error naming the missing setting. */
export function createYouTubeClient(config: Config): YouTubeClient {
  const client = youTubeDataApiFromConfig(config.youtube);
  if (!client) throw new Error('YOUTUBE_API_KEY is not set: connecting channels needs a YouTube Data API v3 key');
  return client;
}
