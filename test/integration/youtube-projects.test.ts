import { randomUUID } from 'node:crypto';
import { getBalance } from '../../src/db/credits';
import { channelScheduleId } from '../../src/shared/workflow-ids';
import { startChannelSync } from '../../src/temporal/channel-sync';
import type { MediaOrigin } from '../fakes/media-origin';
import type { FakeYouTube } from '../fakes/youtube-data-api';
import { consoleRun } from '../helpers/console-run';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, getProjectView, projectBody, waitForProjectView } from '../helpers/projects';
import { request, type TestApi } from '../helpers/test-api';
import { startYouTubeStack, type YouTubeStack } from '../helpers/youtube-stack';
import { waitFor } from '../helpers/wait-for';

// YouTube end to end on real parts: the real Data API client against a local double of the Data
// API, the real yt-dlp against a local media origin, the real worker, dev server and database.

const CPS = 10;
let youtube: FakeYouTube;
let origin: MediaOrigin;
let api: TestApi;
let stack: YouTubeStack;
let dir: string;
let clip: Buffer;
const channel = `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const newVideoId = () => randomUUID().replace(/-/g, '').slice(0, 11);

beforeAll(async () => {
  dir = makeTempDir('youtube-');
  clip = await spokenClip(dir, 'Cooking rice is easy when you measure the water.', 4);
  stack = await startYouTubeStack();
  ({ youtube, origin, api } = stack);
  youtube.addChannel({ id: channel, title: 'Kitchen Basics', handle: '@kitchenbasics' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  removeTempDir(dir);
});

function publish(title: string, options: { durationSeconds?: number; privacyStatus?: 'public' | 'private'; daysAgo?: number } = {}): string {
  const id = newVideoId();
  youtube.addVideo(channel, {
    id,
    title,
    description: `How to: ${title.toLowerCase()}.`,
    durationSeconds: options.durationSeconds ?? 4,
    privacyStatus: options.privacyStatus ?? 'public',
    publishedAt: new Date(Date.now() - (options.daysAgo ?? 0) * 86_400_000).toISOString(),
  });
  origin.add(id, clip);
  return id;
}

const videos = (tenant: TestTenant, query = '') => request(api.baseUrl, 'GET', `/v1/dubbing/youtube/videos${query}`, { headers: bearer(tenant.key) });
const mirrored = async () => (await api.db.selectFrom('youtube_videos').select('id').where('channel_id', '=', channel).execute()).map((r) => r.id);
const ledger = async (projectId: string) =>
  (await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute()).map((r) => `${r.kind}:${r.amount}`);
const syncNow = async () => {
  const { workflowId } = await startChannelSync(api.temporal, api.config.temporal.taskQueue, channel);
  return api.temporal.workflow.getHandle(workflowId).result();
};

let owner: TestTenant;
let rice: string;

it('connects a channel from the console (first one is primary), mirrors its uploads, and lists it', async () => {
  owner = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
  rice = publish('Cooking rice at home', { daysAgo: 1 });
  const older = publish('Boiling eggs', { daysAgo: 3 });

  const connected = await consoleRun('channels:connect', '--workspace', owner.workspace.id, '--channel', 'https://www.youtube.com/@kitchenbasics');
  expect(connected.code).toBe(0);
  expect(connected.out).toContain(`connected: ${channel} "Kitchen Basics" (primary)`);
  await waitFor('mirror filled', async () => ((await mirrored()).length === 2 ? true : undefined), 30_000, 300);
  const schedule = await api.temporal.schedule.getHandle(channelScheduleId(channel)).describe();
  expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'channelSyncWorkflow' });

  const listed = await videos(owner);
  expect(listed.body.data.channel).toEqual({ channel_id: channel, title: 'Kitchen Basics' });
  expect(listed.body.data.items.map((v: any) => v.youtube_video_id)).toEqual([rice, older]);
  expect((await consoleRun('channels:list', '--workspace', owner.workspace.id)).out).toContain(`${channel}  "Kitchen Basics"  primary  synced`);
  expect(youtube.calls.filter((c) => c.endpoint === 'search')).toEqual([]); // a search never spends search.list quota
});

it('syncs incrementally, and retries a quota error until it succeeds', async () => {
  // The schedule fires on the clock's quarter hours: one firing between the publish and the sync
  // by hand would mirror the new video first. Paused for this test alone.
  const schedule = api.temporal.schedule.getHandle(channelScheduleId(channel));
  await schedule.pause('this test syncs by hand');
  const fresh = publish('Frying tofu');
  youtube.failNext('playlistItems', 1, 'quotaExceeded');
  const before = youtube.calls.length;
  const result = await syncNow();
  expect(result).toMatchObject({ added: 1 });
  const playlistCalls = youtube.calls.slice(before).filter((c) => c.endpoint === 'playlistItems');
  expect(playlistCalls.map((c) => c.status)).toEqual([403, 200]); // one refused, one retried; no paging past known videos
  expect(await mirrored()).toContain(fresh);
  const row = await api.db.selectFrom('youtube_channels').select(['last_sync_error', 'last_synced_at']).where('id', '=', channel).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ last_sync_error: null });
  expect(row.last_synced_at).not.toBeNull();
  await schedule.unpause();
});

it('finds a video by exact id before the mirror has it, with one videos.list call', async () => {
  const unseen = publish('Steaming dumplings');
  expect(await mirrored()).not.toContain(unseen);
  const before = youtube.calls.length;
  const found = await videos(owner, `?query=${unseen}`);
  expect(youtube.calls.slice(before).map((c) => c.endpoint)).toEqual(['videos']);
  expect(found.status).toBe(200);
  expect(found.body.data.items).toEqual([expect.objectContaining({ youtube_video_id: unseen, title: 'Steaming dumplings', duration_seconds: 4 })]);
  expect(await mirrored()).toContain(unseen);
  await videos(owner, `?query=${unseen}`);
  expect(youtube.calls.length).toBe(before + 1); // mirrored now: the second search costs nothing
});

it('marks a video that turned private or was removed, never deleting it', async () => {
  const hidden = publish('Pickling cucumbers', { daysAgo: 5 });
  const gone = publish('Grilling corn', { daysAgo: 6 });
  await syncNow();
  expect(await mirrored()).toEqual(expect.arrayContaining([hidden, gone]));
  youtube.updateVideo(hidden, { privacyStatus: 'private' });
  youtube.removeVideo(gone);
  await syncNow();
  const rows = await api.db.selectFrom('youtube_videos').select(['id', 'availability', 'unavailable_reason']).where('id', 'in', [hidden, gone]).orderBy('title').execute();
  expect(rows).toEqual([
    { id: gone, availability: 'unavailable', unavailable_reason: 'removed from YouTube' },
    { id: hidden, availability: 'private', unavailable_reason: 'private' },
  ]);
  const listed = (await videos(owner)).body.data.items.find((v: any) => v.youtube_video_id === hidden);
  expect(listed).toMatchObject({ availability: 'private' });
});

it('dubs a project from a pasted YouTube URL: fetched with yt-dlp (a transient origin error retried), title localized, matching_project pending → verified', async () => {
  origin.failNext(rice, 3, 503); // the origin stumbles: the download step retries and succeeds
  const created = await createProject(
    api,
    owner,
    projectBody({ name: 'Rice', target_locales: ['es_es'], max_billable_seconds: 30, source: { type: 'youtube', url: `https://m.youtube.com/watch?v=${rice}&t=10s&feature=share` } }),
  );
  expect(created.status).toBe(201);
  const id: string = created.body.data.id;
  expect(created.body.data.source).toMatchObject({ type: 'youtube', youtube_video_id: rice });
  const pending = (await videos(owner)).body.data.items.find((v: any) => v.youtube_video_id === rice);
  expect(pending.matching_project).toEqual({ project_id: id, state: 'pending', target_locales: ['es_es'] });

  const done = await waitForProjectView(api, owner, id, 'project completed', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
  expect(done.status).toBe('completed');
  expect(done.publishing).toEqual({ title: 'Cooking rice at home', description: 'How to: cooking rice at home.' });
  const spanish = done.languages[0];
  // The dubbed video too: the downloaded source is in the blob store like an upload (docs/video.md).
  expect(spanish.deliverables.map((d: { type: string; format: string }) => `${d.type}/${d.format}`)).toEqual(
    expect.arrayContaining(['audio/mp3', 'audio/wav', 'dialog_stem/wav', 'background_stem/wav', 'subtitles/vtt', 'subtitles/srt', 'subtitles/ttml', 'thumbnail/png', 'video/mp4']),
  );
  expect(spanish.deliverables).toHaveLength(9); // with the TTML captions and the two stems (docs/captions.md, docs/audio.md#stems)
  expect(spanish.publishing.title).toBeTruthy();
  expect(spanish.publishing.title).not.toBe('Cooking rice at home');
  expect(done.usage).toMatchObject({ state: 'charged', billable_seconds: 4, charged_seconds: 4 });
  expect(origin.downloads(rice)).toBeGreaterThan(3);
  const verified = (await videos(owner)).body.data.items.find((v: any) => v.youtube_video_id === rice);
  expect(verified.matching_project).toEqual({ project_id: id, state: 'verified', target_locales: ['es_es'] });

  // Another workspace with the same channel never sees this workspace's project.
  const other = await createTenant(api.db);
  expect((await consoleRun('channels:connect', '--workspace', other.workspace.id, '--channel', channel)).code).toBe(0);
  const theirs = (await videos(other)).body.data.items.find((v: any) => v.youtube_video_id === rice);
  expect(theirs.matching_project).toBeUndefined();
}, 150_000);

it('ends a private video and an over-ceiling video with nothing charged; the over-ceiling one is never downloaded', async () => {
  const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
  const secret = publish('Secret recipe', { privacyStatus: 'private' });
  const long = publish('A very long stew', { durationSeconds: 3600 });
  const [privateProject, longProject] = await Promise.all([
    createProject(api, tenant, projectBody({ max_billable_seconds: 60, source: { type: 'youtube', url: `https://youtu.be/${secret}` } })),
    createProject(api, tenant, projectBody({ max_billable_seconds: 60, source: { type: 'youtube', url: `https://www.youtube.com/shorts/${long}` } })),
  ]);
  const ended = (id: string) => waitForProjectView(api, tenant, id, 'project failed', (p) => p.status === 'failed', 60_000);
  const [privateView, longView] = await Promise.all([ended(privateProject.body.data.id), ended(longProject.body.data.id)]);

  expect(privateView.failure.code).toBe('source_unavailable');
  expect(privateView.failure.message).toContain('The video is private');
  expect(privateView.usage).toMatchObject({ state: 'released', charged_seconds: 0 });
  expect(longView.failure.code).toBe('max_billable_seconds_exceeded');
  expect(longView.usage).toMatchObject({ state: 'limit_exceeded', billable_seconds: 3600, charged_seconds: 0 });
  for (const view of [privateView, longView]) expect(await ledger(view.id)).toEqual(['hold:600', 'release:600']);
  expect(origin.downloads(long)).toBe(0);
  expect(origin.downloads(secret)).toBe(0);
  expect(await getBalance(api.db, tenant.workspace.id)).toEqual({ granted: 100_000, captured: 0, reserved: 0 });
  expect((await getProjectView(api, tenant, longView.id)).progress.phase).toBe('failed');
}, 90_000);

it('previews a range of a video longer than the ceiling, charged for the range; a range past its end fails invalid_range, never downloaded (docs/previews.md)', async () => {
  const tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: CPS });
  // Declared an hour long (the ceiling would refuse the whole video); its file is the 4 s clip.
  const long = publish('A very long stew, previewed', { durationSeconds: 3600 });
  const script = [{ start_seconds: 1.2, end_seconds: 3.6, text: 'Measure the water.' }];
  const longer = publish('An even longer stew', { durationSeconds: 3600 });
  const url = `https://youtu.be/${long}`;
  const [preview, beyond] = await Promise.all([
    createProject(
      api,
      tenant,
      projectBody({ max_billable_seconds: 60, source: { type: 'youtube', url }, range: { start_seconds: 1, end_seconds: 4 }, transcript: { format: 'json', content: JSON.stringify(script) } }),
    ),
    createProject(api, tenant, projectBody({ max_billable_seconds: 60, source: { type: 'youtube', url: `https://youtu.be/${longer}` }, range: { start_seconds: 3700, end_seconds: 3710 } })),
  ]);
  const beyondView = await waitForProjectView(api, tenant, beyond.body.data.id, 'the range past the end to fail', (p) => p.status === 'failed', 60_000);
  expect(beyondView.failure.code).toBe('invalid_range');
  expect(beyondView.failure.message).toContain('3600.00 s');
  expect(await ledger(beyondView.id)).toEqual(['hold:600', 'release:600']);
  const done = await waitForProjectView(api, tenant, preview.body.data.id, 'the preview', (p) => p.status === 'completed' || p.status === 'failed', 120_000);
  expect(done).toMatchObject({ status: 'completed', preview: true, source: { duration_seconds: 3 }, usage: { billable_seconds: 3, charged_seconds: 3, state: 'charged' } });
  expect(await ledger(done.id)).toEqual(['hold:600', 'capture:30', 'release:570']);
  // The range past the end was refused from the video's metadata, before any byte was downloaded.
  expect(origin.downloads(longer)).toBe(0);
  expect(origin.downloads(long)).toBeGreaterThan(0);
}, 150_000);

it('disconnects from the console; the schedule goes when no workspace uses the channel', async () => {
  const others = await api.db.selectFrom('workspace_channels').select('workspace_id').where('channel_id', '=', channel).execute();
  for (const { workspace_id: workspaceId } of others) {
    const out = await consoleRun('channels:disconnect', channel, '--workspace', workspaceId);
    expect(out.code).toBe(0);
  }
  await expect(api.temporal.schedule.getHandle(channelScheduleId(channel)).describe()).rejects.toThrow();
  expect((await videos(owner)).body.data).toEqual({ connection_required: true, channel: null, items: [] });
  expect(await mirrored()).not.toEqual([]); // the mirror stays: projects point at it
});
