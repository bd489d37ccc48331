import { randomUUID } from 'node:crypto';
import { blobKeys } from '../../src/db/uploads';
import { projectWorkflowId } from '../../src/shared/workflow-ids';
import { SOURCE_DOWNLOAD_STEP_MS } from '../../src/shared/source-download-limits';
import { createTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody, waitForProjectView } from '../helpers/projects';
import { slowFirstPutFile } from '../helpers/slow-blob-store';
import { startYouTubeStack, type YouTubeStack } from '../helpers/youtube-stack';

// A YouTube source whose copy into the blob store outlasts the download step's heartbeat timeout
// (30 s), as a file of a few GB does on S3: the real worker, yt-dlp, dev server and database,
// with the worker's blob store slowed on that one write.

// Past what silence the server sees: the SDK sends a heartbeat at most every 80 % of the timeout
// (24 s) and flushes the last one pending then, so a step that stops heartbeating right after
// yt-dlp ends times out 24 + 30 s later at the earliest; 70 s leaves a margin.
const STORE_DELAY_MS = 70_000;
const CHANNEL = `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
let stack: YouTubeStack;
let store: ReturnType<typeof slowFirstPutFile>;
let dir: string;
let clip: Buffer;

beforeAll(async () => {
  dir = makeTempDir('youtube-store-');
  clip = await spokenClip(dir, 'Fresh bread needs a hot oven and a little patience.', 4);
  stack = await startYouTubeStack((api) => {
    store = slowFirstPutFile(api.blobStore, (key) => key.endsWith('/source'), STORE_DELAY_MS);
    return { blobStore: store };
  });
  stack.youtube.addChannel({ id: CHANNEL, title: 'Bakery' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  removeTempDir(dir);
});

const seconds = (duration: { seconds?: unknown } | null | undefined) => Number(duration?.seconds ?? 0);

it('issue 26 item 4: a store write slower than the heartbeat timeout completes in one attempt of the download step', async () => {
  const { api, youtube, origin } = stack;
  const videoId = randomUUID().replace(/-/g, '').slice(0, 11);
  youtube.addVideo(CHANNEL, { id: videoId, title: 'Baking bread', publishedAt: new Date().toISOString(), durationSeconds: 4 });
  origin.add(videoId, clip);
  const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });

  const created = await createProject(api, tenant, projectBody({ target_locales: ['es_es'], max_billable_seconds: 30, source: { type: 'youtube', url: `https://youtu.be/${videoId}` } }));
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  const done = await waitForProjectView(api, tenant, id, 'project settled', (p) => p.status === 'completed' || p.status === 'failed', 150_000);

  expect(done.status).toBe('completed');
  expect(done.usage).toMatchObject({ state: 'charged', charged_seconds: 4 });
  // One write of the source: no second attempt downloaded and stored it again beside the first.
  expect(store.putFileKeys.filter((key) => key === blobKeys.source(id))).toEqual([blobKeys.source(id)]);
  expect((await api.blobStore.stat(blobKeys.source(id)))?.sizeBytes).toBe(clip.length);

  const events = (await api.temporal.workflow.getHandle(projectWorkflowId(id)).fetchHistory()).events ?? [];
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'downloadYoutubeSource');
  expect(scheduled).toHaveLength(1);
  const attributes = scheduled[0]!.activityTaskScheduledEventAttributes!;
  // yt-dlp's own limit (YOUTUBE_DOWNLOAD_TIMEOUT_MS) fits inside this, with the store write.
  expect(seconds(attributes.startToCloseTimeout)).toBe(SOURCE_DOWNLOAD_STEP_MS / 1000);
  expect(seconds(attributes.heartbeatTimeout)).toBe(30);
  expect(seconds(attributes.heartbeatTimeout) * 1000).toBeLessThan(STORE_DELAY_MS);
  const scheduledId = String(scheduled[0]!.eventId);
  const started = events.filter((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === scheduledId);
  expect(started.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([1]);
  expect(events.some((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === scheduledId)).toBe(true);
}, 200_000);
