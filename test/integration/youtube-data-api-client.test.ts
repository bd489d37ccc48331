import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { YouTubeDataApi } from '../../src/sources/youtube/data-api-client';
import { YouTubeApiError } from '../../src/sources/youtube/youtube-api-error';
import { FAKE_YOUTUBE_API_KEY, startFakeYouTubeDataApi, type FakeYouTube } from '../fakes/youtube-data-api';

// The real client against the local Data API double, over real HTTP.

const CHANNEL_ID = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';
const OTHER_CHANNEL_ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';

let fake: FakeYouTube;
let api: YouTubeDataApi;

beforeEach(async () => {
  fake = await startFakeYouTubeDataApi();
  api = new YouTubeDataApi({ apiKey: FAKE_YOUTUBE_API_KEY, baseUrl: fake.baseUrl, timeoutMs: 5000 });
  fake.addChannel({ id: CHANNEL_ID, title: 'Google for Developers', handle: '@GoogleDevelopers' });
});

afterEach(async () => {
  await fake.close();
});

/** A valid 11-character video id, unique per n. */
const videoId = (n: number) => `vid${String(n).padStart(8, '0')}`;

function addVideos(count: number, channelId = CHANNEL_ID): void {
  for (let n = 0; n < count; n++) {
    fake.addVideo(channelId, { id: videoId(n), title: `Video ${n}`, publishedAt: new Date(Date.UTC(2024, 0, 1) + n * 3600_000).toISOString(), durationSeconds: 60 + n });
  }
}

async function caught(promise: Promise<unknown>): Promise<YouTubeApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(YouTubeApiError);
  return error as YouTubeApiError;
}

describe('resolveChannel', () => {
  const expected = { id: CHANNEL_ID, title: 'Google for Developers', handle: '@googledevelopers', uploadsPlaylistId: 'UU_x5XG1OV2P6uZZ5FSM9Ttw' };

  it('resolves an id with one channels.list call', async () => {
    await expect(api.resolveChannel(CHANNEL_ID)).resolves.toEqual(expected);
    expect(fake.calls).toEqual([{ endpoint: 'channels', params: { part: 'snippet,contentDetails', id: CHANNEL_ID, key: FAKE_YOUTUBE_API_KEY }, status: 200 }]);
  });

  it('resolves a handle (case-insensitively) and channel URLs', async () => {
    await expect(api.resolveChannel('@googledevelopers')).resolves.toEqual(expected);
    await expect(api.resolveChannel('https://www.youtube.com/@GoogleDevelopers/videos')).resolves.toEqual(expected);
    await expect(api.resolveChannel(`https://m.youtube.com/channel/${CHANNEL_ID}`)).resolves.toEqual(expected);
    expect(fake.calls.map((call) => call.params.forHandle ?? call.params.id)).toEqual(['@googledevelopers', '@GoogleDevelopers', CHANNEL_ID]);
  });

  it('says channelNotFound, not retryable, for an unknown id or handle', async () => {
    for (const ref of [OTHER_CHANNEL_ID, '@nobody-here']) {
      const error = await caught(api.resolveChannel(ref));
      expect(error).toMatchObject({ reason: 'channelNotFound', retryable: false });
    }
    expect(fake.calls.map((call) => call.status)).toEqual([200, 200]);
  });

  it('refuses a ref it cannot read without calling the API', async () => {
    const error = await caught(api.resolveChannel('https://www.youtube.com/watch?v=dQw4w9WgXcQ'));
    expect(error).toMatchObject({ reason: 'invalidChannelRef', retryable: false });
    expect(fake.calls).toEqual([]);
  });
});

describe('listUploads', () => {
  it('pages through 120 uploads newest first in 3 calls of 50', async () => {
    addVideos(120);
    const { uploadsPlaylistId } = await api.resolveChannel(CHANNEL_ID);
    const seen: { id: string; publishedAt: string }[] = [];
    let pageToken: string | undefined;
    do {
      const page = await api.listUploads(uploadsPlaylistId, pageToken);
      seen.push(...page.videoIds);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);

    expect(seen).toHaveLength(120);
    expect(seen[0]).toEqual({ id: videoId(119), publishedAt: new Date(Date.UTC(2024, 0, 1) + 119 * 3600_000).toISOString() });
    expect(seen.map((upload) => upload.id)).toEqual(Array.from({ length: 120 }, (_, n) => videoId(119 - n)));
    const pageCalls = fake.calls.filter((call) => call.endpoint === 'playlistItems');
    expect(pageCalls).toHaveLength(3);
    expect(pageCalls.map((call) => [call.params.part, call.params.maxResults, call.params.playlistId])).toEqual(Array(3).fill(['contentDetails', '50', uploadsPlaylistId]));
    expect(pageCalls[0]!.params.pageToken).toBeUndefined();
    expect(pageCalls[1]!.params.pageToken).toEqual(expect.any(String));
  });

  it('returns an empty last page for a channel without uploads', async () => {
    await expect(api.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw')).resolves.toEqual({ videoIds: [], nextPageToken: null });
  });

  it('surfaces quotaExceeded as a retryable error with its reason, then recovers', async () => {
    addVideos(3);
    fake.failNext('playlistItems', 2, 'quotaExceeded');
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await caught(api.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw'));
      expect(error).toMatchObject({ status: 403, reason: 'quotaExceeded', retryable: true });
      expect(error.message).toContain('exceeded your quota');
    }
    await expect(api.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw')).resolves.toMatchObject({ videoIds: [{ id: videoId(2) }, { id: videoId(1) }, { id: videoId(0) }] });
  });

  it('says playlistNotFound (404, not retryable) for an unknown playlist, and backendError is retryable', async () => {
    await expect(caught(api.listUploads('UUnope'))).resolves.toMatchObject({ status: 404, reason: 'playlistNotFound', retryable: false });
    fake.failNext('playlistItems', 1, 'backendError');
    await expect(caught(api.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw'))).resolves.toMatchObject({ status: 500, reason: 'backendError', retryable: true });
  });
});

describe('getVideos', () => {
  it('batches 120 ids into videos.list calls of at most 50 and leaves out missing ids', async () => {
    addVideos(100);
    const ids = [...Array.from({ length: 100 }, (_, n) => videoId(n)), ...Array.from({ length: 20 }, (_, n) => videoId(500 + n))];
    const videos = await api.getVideos(ids);
    expect(videos.map((video) => video.id)).toEqual(ids.slice(0, 100));
    const calls = fake.calls.filter((call) => call.endpoint === 'videos');
    expect(calls.map((call) => call.params.id!.split(',').length)).toEqual([50, 50, 20]);
    expect(calls.every((call) => call.params.part === 'snippet,contentDetails,status')).toBe(true);
  });

  it('makes no call for no ids, and one call for 50', async () => {
    addVideos(50);
    await expect(api.getVideos([])).resolves.toEqual([]);
    await api.getVideos(Array.from({ length: 50 }, (_, n) => videoId(n)));
    expect(fake.calls).toHaveLength(1);
  });

  it('maps every field and the availability rules', async () => {
    fake.addVideo(CHANNEL_ID, {
      id: 'public00001',
      title: 'Rice',
      description: 'How to cook rice',
      publishedAt: '2024-05-01T10:00:00Z',
      durationSeconds: 3723,
      ageRestricted: true,
      embeddable: false,
      regionRestriction: { blocked: ['DE', 'FR'] },
    });
    fake.addVideo(CHANNEL_ID, { id: 'unlisted001', title: 'U', publishedAt: '2024-05-02T10:00:00Z', durationSeconds: 90_061, privacyStatus: 'unlisted' });
    fake.addVideo(CHANNEL_ID, { id: 'private0001', title: 'P', publishedAt: '2024-05-03T10:00:00Z', durationSeconds: 10, privacyStatus: 'private' });
    fake.addVideo(CHANNEL_ID, { id: 'upcoming001', title: 'L', publishedAt: '2024-05-04T10:00:00Z', durationSeconds: 0, liveBroadcastContent: 'upcoming' });
    fake.addVideo(CHANNEL_ID, { id: 'rejected001', title: 'R', publishedAt: '2024-05-05T10:00:00Z', durationSeconds: 10, uploadStatus: 'rejected', rejectionReason: 'copyright' });
    fake.addVideo(CHANNEL_ID, { id: 'nodurat0001', title: 'N', publishedAt: '2024-05-06T10:00:00Z', durationSeconds: null, uploadStatus: 'uploaded' });

    const videos = await api.getVideos(['public00001', 'unlisted001', 'private0001', 'upcoming001', 'rejected001', 'nodurat0001']);
    expect(videos[0]).toEqual({
      id: 'public00001',
      channelId: CHANNEL_ID,
      title: 'Rice',
      description: 'How to cook rice',
      publishedAt: '2024-05-01T10:00:00Z',
      durationSeconds: 3723,
      privacyStatus: 'public',
      uploadStatus: 'processed',
      liveBroadcastContent: 'none',
      embeddable: false,
      ageRestricted: true,
      regionRestriction: { blocked: ['DE', 'FR'] },
      availability: 'available',
      unavailableReason: null,
    });
    expect(videos.map((video) => [video.id, video.availability, video.unavailableReason, video.durationSeconds])).toEqual([
      ['public00001', 'available', null, 3723],
      ['unlisted001', 'available', null, 90_061],
      ['private0001', 'private', 'private', 10],
      ['upcoming001', 'live', 'upcoming', 0],
      ['rejected001', 'unavailable', 'rejected: copyright', 10],
      ['nodurat0001', 'unavailable', 'uploaded', null],
    ]);
  });

  it('sees updates and removals', async () => {
    addVideos(2);
    fake.updateVideo(videoId(0), { title: 'Renamed', privacyStatus: 'private' });
    fake.removeVideo(videoId(1));
    await expect(api.getVideos([videoId(0), videoId(1)])).resolves.toMatchObject([{ id: videoId(0), title: 'Renamed', availability: 'private' }]);
    await expect(api.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw')).resolves.toMatchObject({ videoIds: [{ id: videoId(0) }] });
  });

  it('refuses an id that is not a video id before calling', async () => {
    await expect(caught(api.getVideos(['abc,def']))).resolves.toMatchObject({ reason: 'invalidVideoId', retryable: false });
    expect(fake.calls).toEqual([]);
  });
});

describe('errors', () => {
  it('a bad key is keyInvalid, not retryable, and the key never appears in the message', async () => {
    const secret = 'AIzaSyWRONG-key_that+must/stay=secret';
    const wrong = new YouTubeDataApi({ apiKey: secret, baseUrl: fake.baseUrl });
    const error = await caught(wrong.getVideos([videoId(0)]));
    expect(error).toMatchObject({ status: 400, reason: 'keyInvalid', retryable: false });
    expect(fake.calls[0]!.params.key).toBe(secret);
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(secret);
    expect(error.message).not.toContain(encodeURIComponent(secret));
  });

  it('forbidden is not retryable', async () => {
    fake.failNext('channels', 1, 'forbidden');
    await expect(caught(api.resolveChannel(CHANNEL_ID))).resolves.toMatchObject({ status: 403, reason: 'forbidden', retryable: false });
  });

  it('an unknown endpoint answers 404 (HTML) and the client still classifies it', async () => {
    const response = await fetch(`${fake.baseUrl}/search?part=snippet&key=${FAKE_YOUTUBE_API_KEY}`);
    expect(response.status).toBe(404);
    const misrouted = new YouTubeDataApi({ apiKey: FAKE_YOUTUBE_API_KEY, baseUrl: `${fake.baseUrl}/nope` });
    await expect(caught(misrouted.resolveChannel(CHANNEL_ID))).resolves.toMatchObject({ status: 404, reason: 'notFound', retryable: false });
  });

  it('a server that never answers times out, retryable, without the key in the message', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent = http.createServer(() => undefined);
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const slow = new YouTubeDataApi({ apiKey: 'AIzaSecretKey', baseUrl: `http://127.0.0.1:${port}/youtube/v3`, timeoutMs: 200 });
      const started = Date.now();
      const error = await caught(slow.resolveChannel(CHANNEL_ID));
      expect(error).toMatchObject({ status: null, reason: 'timeout', retryable: true });
      expect(error.message).not.toContain('AIzaSecretKey');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a refused connection is a retryable networkError', async () => {
    const closed = await startFakeYouTubeDataApi();
    await closed.close();
    const offline = new YouTubeDataApi({ apiKey: 'AIzaSecretKey', baseUrl: closed.baseUrl, timeoutMs: 2000 });
    const error = await caught(offline.listUploads('UU_x5XG1OV2P6uZZ5FSM9Ttw'));
    expect(error).toMatchObject({ status: null, reason: 'networkError', retryable: true });
    expect(error.message).not.toContain('AIzaSecretKey');
  });
});
