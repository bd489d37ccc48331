import type { ActivityDeps } from '../../src/activities';
import { YouTubeDataApi } from '../../src/sources/youtube/data-api-client';
import { YtDlpDownloader } from '../../src/sources/youtube/ytdlp-downloader';
import { startMediaOrigin, type MediaOrigin } from '../fakes/media-origin';
import { FAKE_YOUTUBE_API_KEY, startFakeYouTubeDataApi, type FakeYouTube } from '../fakes/youtube-data-api';
import { startTestApi, type TestApi } from './test-api';
import { startTestWorker, type TestWorker } from './test-worker';

// YouTube on real parts: the real Data API client against a local double of the Data API, the
// real yt-dlp against a local media origin, the real API and worker. The console reads its
// settings from the environment, like the operator's shell, so they are set there too.

export interface YouTubeStack {
  youtube: FakeYouTube;
  origin: MediaOrigin;
  api: TestApi;
  worker: TestWorker;
  close(): Promise<void>;
}

const CONSOLE_ENV = ['YOUTUBE_API_KEY', 'YOUTUBE_API_BASE_URL', 'YOUTUBE_WATCH_URL_TEMPLATE', 'TEMPORAL_TASK_QUEUE'];

/** @param workerOverrides more activity dependencies for the worker, e.g. a wrapped blob store. */
export async function startYouTubeStack(workerOverrides: (api: TestApi) => Partial<ActivityDeps> = () => ({})): Promise<YouTubeStack> {
  const [youtube, origin] = await Promise.all([startFakeYouTubeDataApi({ requiredKey: FAKE_YOUTUBE_API_KEY }), startMediaOrigin()]);
  const env = { YOUTUBE_API_KEY: FAKE_YOUTUBE_API_KEY, YOUTUBE_API_BASE_URL: youtube.baseUrl, YOUTUBE_WATCH_URL_TEMPLATE: origin.watchUrlTemplate };
  const api = await startTestApi(env);
  Object.assign(process.env, env, { TEMPORAL_TASK_QUEUE: api.config.temporal.taskQueue });
  const worker = await startTestWorker(api.db, {
    taskQueue: api.config.temporal.taskQueue,
    overrides: {
      youtube: new YouTubeDataApi({ apiKey: FAKE_YOUTUBE_API_KEY, baseUrl: youtube.baseUrl }),
      downloader: new YtDlpDownloader({ command: 'yt-dlp', watchUrlTemplate: origin.watchUrlTemplate, maxBytes: 50 * 1024 * 1024, timeoutMs: 60_000 }),
      ...workerOverrides(api),
    },
  });
  return {
    youtube,
    origin,
    api,
    worker,
    async close() {
      for (const name of CONSOLE_ENV) delete process.env[name];
      await worker.stop();
      await api.close();
      await Promise.all([youtube.close(), origin.close()]);
    },
  };
}
