import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { MediaOrigin } from '../fakes/media-origin';
import type { FakeYouTube } from '../fakes/youtube-data-api';
import { consoleRun } from '../helpers/console-run';
import { dubEnv, runDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import type { TestApi } from '../helpers/test-api';
import { startYouTubeStack, type YouTubeStack } from '../helpers/youtube-stack';

// `dub quote` and `dub create --wait` from a YouTube URL, on real parts: the real Data API client
// against a local double of the Data API, the real yt-dlp against a local media origin, the real
// API, worker, dev server and database. The duration (for the quote and the ceiling) comes from
// the workspace's connected channel.

const channel = `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const videoId = randomUUID().replace(/-/g, '').slice(0, 11);
let youtube: FakeYouTube;
let origin: MediaOrigin;
let api: TestApi;
let stack: YouTubeStack;
let tenant: TestTenant;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir('dub-cli-youtube');
  const clip = await spokenClip(dir, 'Cooking rice is easy when you measure the water.', 4);
  stack = await startYouTubeStack();
  ({ youtube, origin, api } = stack);
  youtube.addChannel({ id: channel, title: 'Kitchen Basics', handle: '@kitchenbasics' });
  youtube.addVideo(channel, { id: videoId, title: 'Cooking rice at home', description: 'How to cook rice.', durationSeconds: 4, privacyStatus: 'public', publishedAt: new Date().toISOString() });
  origin.add(videoId, clip);
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
  const connected = await consoleRun('channels:connect', '--workspace', tenant.workspace.id, '--channel', channel);
  expect(connected.code).toBe(0);
}, 90_000);

afterAll(async () => {
  await stack?.close();
  if (dir) removeTempDir(dir);
});

it('quotes a YouTube video from the channel mirror, then dubs it and saves its files', async () => {
  const env = dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });
  const url = `https://youtu.be/${videoId}`;
  const quote = await runDub(['quote', url, '--to', 'es_es'], { cwd: dir, env });
  expect(quote.stderr).toBe('');
  expect(quote.code).toBe(0);
  expect(quote.stdout).toContain(`Source     ${url}, 4.0 s`);
  expect(quote.stdout).toContain('4 s × 1 = 4 s');
  expect(quote.stdout).toContain('Credits    40 (10 per second)');

  const out = path.join(dir, 'out');
  const run = await runDub(['create', url, '--to', 'es_es', '--wait', '--out', out], { cwd: dir, env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const projectId = /Created project ([0-9a-f-]{36}) \(Cooking rice at home\)/.exec(run.stdout)?.[1];
  expect(projectId).toBeDefined();
  expect(run.stdout).toContain(`Project ${projectId} completed.`);
  for (const format of ['mp3', 'wav', 'srt', 'vtt', 'png', 'mp4']) {
    const file = path.join(out, `Cooking rice at home.es_es.${format}`);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(0);
  }
  // The ceiling is the mirror's duration: the hold was exactly what the dubbing cost.
  const project = await api.db
    .selectFrom('projects')
    .select(['status', 'source_type', 'youtube_video_id', 'max_billable_seconds', 'billable_seconds'])
    .where('id', '=', projectId!)
    .executeTakeFirstOrThrow();
  expect(project).toEqual({ status: 'completed', source_type: 'youtube', youtube_video_id: videoId, max_billable_seconds: 4, billable_seconds: 4 });
}, 300_000);

it('refuses a URL that is not a YouTube video before calling the API', async () => {
  const before = api.requests.length;
  const run = await runDub(['create', 'https://example.com/watch?v=abc', '--to', 'es_es'], { cwd: dir, env: dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl }) });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('is not a YouTube video URL');
  expect(api.requests.length).toBe(before);
});
