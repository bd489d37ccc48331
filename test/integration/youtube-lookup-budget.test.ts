import { randomUUID } from 'node:crypto';
import { connectChannel } from '../../src/db/youtube';
import { FAKE_YOUTUBE_API_KEY, startFakeYouTubeDataApi, type FakeYouTube } from '../fakes/youtube-data-api';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The video search's live Data API lookups of an exact id the mirror lacks, over HTTP against
// the local Data API double: a miss is remembered (in the database, for every API process) and
// each workspace has an hourly budget, so no tenant can spend the service's quota.

const BUDGET = 4;
let youtube: FakeYouTube;
let api: TestApi;

beforeAll(async () => {
  youtube = await startFakeYouTubeDataApi({ requiredKey: FAKE_YOUTUBE_API_KEY });
  api = await startTestApi({ YOUTUBE_API_KEY: FAKE_YOUTUBE_API_KEY, YOUTUBE_API_BASE_URL: youtube.baseUrl, YOUTUBE_LOOKUPS_PER_HOUR: String(BUDGET) });
});
afterAll(async () => {
  await api?.close();
  await youtube?.close();
});

const newChannelId = () => `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const newVideoId = () => randomUUID().replace(/-/g, '').slice(0, 11);
const search = (tenant: TestTenant, videoId: string) => request(api.baseUrl, 'GET', `/v1/dubbing/youtube/videos?query=${videoId}`, { headers: bearer(tenant.key) });
/** videos.list calls the double received for this id. */
const callsFor = (videoId: string) => youtube.calls.filter((c) => c.endpoint === 'videos' && c.params.id === videoId).length;
const budgetUsed = async (tenant: TestTenant) => (await api.db.selectFrom('youtube_lookup_budgets').select('used').where('workspace_id', '=', tenant.workspace.id).execute()).map((r) => r.used);
const mirrored = async (videoId: string) => (await api.db.selectFrom('youtube_videos').select('id').where('id', '=', videoId).execute()).length;

/** A tenant with a connected (empty-mirror) channel known to the double. */
async function tenantWithChannel(channelId = newChannelId()): Promise<{ tenant: TestTenant; channelId: string }> {
  const tenant = await createTenant(api.db);
  youtube.addChannel({ id: channelId, title: `Channel ${channelId.slice(2, 8)}` });
  await api.db.transaction().execute((trx) =>
    connectChannel(trx, {
      workspaceId: tenant.workspace.id,
      channel: { id: channelId, title: `Channel ${channelId.slice(2, 8)}`, handle: null, uploads_playlist_id: `UU${channelId.slice(2)}` },
      primary: true,
    }),
  );
  return { tenant, channelId };
}

function publish(channelId: string, title: string): string {
  const id = newVideoId();
  youtube.addVideo(channelId, { id, title, publishedAt: new Date().toISOString(), durationSeconds: 60 });
  return id;
}

it('issue 26 item 3: the same unknown id searched 5 times costs one videos.list call; the miss is remembered for every channel but its own', async () => {
  const { tenant } = await tenantWithChannel();
  const unknown = newVideoId();

  const answers = [];
  for (let i = 0; i < 5; i += 1) answers.push(await search(tenant, unknown));

  expect(callsFor(unknown)).toBe(1);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  expect(answers.map((a) => a.body.data.items)).toEqual([[], [], [], [], []]);
  expect(answers.map((a) => a.headers.get('youtube-lookup'))).toEqual(['not_found', 'remembered_miss', 'remembered_miss', 'remembered_miss', 'remembered_miss']);
  expect(await api.db.selectFrom('youtube_lookup_misses').select(['video_id', 'owner_channel_id']).where('video_id', '=', unknown).execute()).toEqual([{ video_id: unknown, owner_channel_id: null }]);
  expect(await budgetUsed(tenant)).toEqual([1]); // remembered misses cost no budget

  // Concurrent searches for one id share the call too.
  const burst = newVideoId();
  const concurrent = await Promise.all(Array.from({ length: 5 }, () => search(tenant, burst)));
  expect(concurrent.every((a) => a.status === 200 && a.body.data.items.length === 0)).toBe(true);
  expect(callsFor(burst)).toBe(1);

  // A video of another channel is a miss here, remembered with its owner; the workspace that
  // connected that channel still looks it up (its sync may not have run yet) and finds it.
  const { tenant: owner, channelId: ownerChannel } = await tenantWithChannel();
  const theirs = publish(ownerChannel, 'Making soup');
  expect((await search(tenant, theirs)).headers.get('youtube-lookup')).toBe('not_found');
  expect((await search(tenant, theirs)).headers.get('youtube-lookup')).toBe('remembered_miss');
  expect(callsFor(theirs)).toBe(1);
  expect(await mirrored(theirs)).toBe(0);
  expect(await api.db.selectFrom('youtube_lookup_misses').select('owner_channel_id').where('video_id', '=', theirs).executeTakeFirst()).toEqual({ owner_channel_id: ownerChannel });

  const found = await search(owner, theirs);
  expect(found.headers.get('youtube-lookup')).toBe('found');
  expect(found.body.data.items.map((v: any) => [v.youtube_video_id, v.title])).toEqual([[theirs, 'Making soup']]);
  expect(callsFor(theirs)).toBe(2);
  expect(await mirrored(theirs)).toBe(1);
  expect(await budgetUsed(tenant)).toEqual([3]);
  expect(await budgetUsed(owner)).toEqual([1]);
});

it('issue 26 item 3: a workspace past its hourly budget makes no more upstream calls (the mirror answers) while another workspace still can', async () => {
  const { tenant, channelId } = await tenantWithChannel();
  const before = youtube.calls.length;
  for (let i = 0; i < BUDGET; i += 1) expect((await search(tenant, newVideoId())).headers.get('youtube-lookup')).toBe('not_found');
  expect(youtube.calls.length).toBe(before + BUDGET);
  expect(await budgetUsed(tenant)).toEqual([BUDGET]);

  // Past the budget even a real new video of its own channel is answered from the mirror alone.
  const fresh = publish(channelId, 'Baking bread');
  const spent = await search(tenant, fresh);
  expect(spent.status).toBe(200);
  expect(spent.headers.get('youtube-lookup')).toBe('budget_exhausted');
  expect(spent.body.data).toEqual({ connection_required: false, channel: { channel_id: channelId, title: `Channel ${channelId.slice(2, 8)}` }, items: [] });
  expect((await search(tenant, newVideoId())).headers.get('youtube-lookup')).toBe('budget_exhausted');
  expect(youtube.calls.length).toBe(before + BUDGET);
  expect(await budgetUsed(tenant)).toEqual([BUDGET]);
  expect(await mirrored(fresh)).toBe(0);

  // Another workspace on the same channel has its own budget: its lookup is made and mirrors the
  // video, which the first workspace then finds in the mirror, at no cost.
  const other = await createTenant(api.db);
  await api.db.transaction().execute((trx) =>
    connectChannel(trx, {
      workspaceId: other.workspace.id,
      channel: { id: channelId, title: `Channel ${channelId.slice(2, 8)}`, handle: null, uploads_playlist_id: `UU${channelId.slice(2)}` },
      primary: true,
    }),
  );
  const theirs = await search(other, fresh);
  expect(theirs.headers.get('youtube-lookup')).toBe('found');
  expect(theirs.body.data.items.map((v: any) => v.youtube_video_id)).toEqual([fresh]);
  expect(callsFor(fresh)).toBe(1);
  expect(await budgetUsed(other)).toEqual([1]);

  const mine = await search(tenant, fresh);
  expect(mine.headers.get('youtube-lookup')).toBeNull();
  expect(mine.body.data.items.map((v: any) => v.youtube_video_id)).toEqual([fresh]);
  expect(callsFor(fresh)).toBe(1);
  expect(await budgetUsed(tenant)).toEqual([BUDGET]);
});
