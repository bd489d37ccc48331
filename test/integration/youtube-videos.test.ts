import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/create-db';
import { connectChannel, disconnectChannel, upsertVideos } from '../../src/db/youtube';
import { bearer, createTenant, type TestTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// GET /v1/dubbing/youtube/videos on the real app and database: served from the mirror, scoped
// to the caller's connected channels and projects.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const channelId = () => `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const videoId = () => randomUUID().replace(/-/g, '').slice(0, 11);
const list = (tenant: TestTenant, query = '') => request(api.baseUrl, 'GET', `/v1/dubbing/youtube/videos${query}`, { headers: bearer(tenant.key) });

async function connect(db: Db, workspaceId: string, id: string, primary = false) {
  await db.transaction().execute((trx) => connectChannel(trx, { workspaceId, channel: { id, title: `Channel ${id.slice(2, 8)}`, handle: null, uploads_playlist_id: `UU${id.slice(2)}` }, primary }));
}

async function mirror(db: Db, channel: string, titles: string[]): Promise<string[]> {
  const ids = titles.map(() => videoId());
  // Published one day apart, the first title newest.
  await upsertVideos(
    db,
    titles.map((title, i) => ({
      id: ids[i]!,
      channel_id: channel,
      title,
      description: `About ${title}`,
      published_at: new Date(Date.UTC(2026, 10, 20 - i)),
      duration_seconds: 60 + i,
      availability: 'available' as const,
      unavailable_reason: null,
    })),
  );
  return ids;
}

/** A project row for a video, in the state given (no credits involved: this is about the match). */
async function projectFor(db: Db, tenant: TestTenant, video: string, state: { status: string; usage_state: string }) {
  const id = randomUUID();
  await db
    .insertInto('projects')
    .values({
      id,
      workspace_id: tenant.workspace.id,
      name: 'p',
      source_type: 'youtube',
      source_url: `https://youtu.be/${video}`,
      youtube_video_id: video,
      source_locale: 'en_us',
      target_locales: ['es_es', 'ca_es'],
      status: state.status as any,
      phase: 'validating',
      max_billable_seconds: 600,
      credits_per_second: 10,
      usage_state: state.usage_state as any,
      hold_reference: `${id}:hold`,
    })
    .execute();
  return id;
}

it('answers connection_required when the workspace has no channel', async () => {
  const tenant = await createTenant(api.db);
  const res = await list(tenant);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: { connection_required: true, channel: null, items: [] } });
});

it('lists the primary channel newest first, searches titles case-insensitively and by exact id', async () => {
  const tenant = await createTenant(api.db);
  const channel = channelId();
  await connect(api.db, tenant.workspace.id, channel);
  const ids = await mirror(api.db, channel, ['Cooking rice', 'Baking BREAD at home', 'Bread, the sequel', 'Gardening']);

  const all = await list(tenant);
  expect(all.status).toBe(200);
  expect(all.body.data.connection_required).toBe(false);
  expect(all.body.data.channel).toEqual({ channel_id: channel, title: `Channel ${channel.slice(2, 8)}` });
  expect(all.body.data.items.map((v: any) => v.youtube_video_id)).toEqual(ids);
  expect(all.body.data.items[0]).toMatchObject({ title: 'Cooking rice', url: `https://www.youtube.com/watch?v=${ids[0]}`, duration_seconds: 60 });
  expect(all.body.data.items[0].matching_project).toBeUndefined();

  const bread = await list(tenant, '?query=bread');
  expect(bread.body.data.items.map((v: any) => v.title)).toEqual(['Baking BREAD at home', 'Bread, the sequel']);
  const exact = await list(tenant, `?query=${ids[3]}`);
  expect(exact.body.data.items.map((v: any) => v.youtube_video_id)).toEqual([ids[3]]);
  // An exact id answers that video alone, even when another title quotes the id; an 11-letter
  // word that is no video id searches titles.
  const [quoting, worded] = await mirror(api.db, channel, [`Reacting to ${ids[0]}`, 'Breadmaking basics']);
  expect((await list(tenant, `?query=${ids[0]}`)).body.data.items.map((v: any) => v.youtube_video_id)).toEqual([ids[0]]);
  expect((await list(tenant, '?query=Breadmaking')).body.data.items.map((v: any) => v.youtube_video_id)).toEqual([worded]);
  expect((await list(tenant, `?query=${encodeURIComponent(`to ${ids[0]}`)}`)).body.data.items.map((v: any) => v.youtube_video_id)).toEqual([quoting]);
  const limited = await list(tenant, '?limit=2');
  expect(limited.body.data.items).toHaveLength(2);
  const wildcard = await list(tenant, `?query=${encodeURIComponent('%')}`);
  expect(wildcard.body.data.items).toEqual([]); // LIKE metacharacters are searched literally
});

it('refuses bad parameters with 400 naming them', async () => {
  const tenant = await createTenant(api.db);
  for (const [query, param, code] of [
    ['?limit=0', 'limit', 'invalid_parameter'],
    ['?limit=51', 'limit', 'invalid_parameter'],
    ['?limit=abc', 'limit', 'invalid_parameter'],
    ['?sort=new', 'sort', 'unknown_parameter'],
  ] as const) {
    const res = await list(tenant, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
  }
});

it("answers 404 for a channel that is not connected to the caller's workspace, even if another workspace connected it", async () => {
  const [mine, theirs] = [await createTenant(api.db), await createTenant(api.db)];
  const channel = channelId();
  await connect(api.db, theirs.workspace.id, channel);
  await connect(api.db, mine.workspace.id, channelId());
  for (const id of [channel, channelId()]) {
    const res = await list(mine, `?channel_id=${id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'not_found', param: 'channel_id' });
  }
  expect((await list(theirs, `?channel_id=${channel}`)).status).toBe(200);
});

it('one primary per workspace: the first channel, then whichever is connected with primary', async () => {
  const tenant = await createTenant(api.db);
  const [first, second] = [channelId(), channelId()];
  await connect(api.db, tenant.workspace.id, first);
  await connect(api.db, tenant.workspace.id, second);
  expect((await list(tenant)).body.data.channel.channel_id).toBe(first);
  await connect(api.db, tenant.workspace.id, second, true);
  expect((await list(tenant)).body.data.channel.channel_id).toBe(second);
  const primaries = await api.db.selectFrom('workspace_channels').select('channel_id').where('workspace_id', '=', tenant.workspace.id).where('is_primary', '=', true).execute();
  expect(primaries).toEqual([{ channel_id: second }]);
  // The constraint, not the code, forbids a second primary.
  await expect(api.db.updateTable('workspace_channels').set({ is_primary: true }).where('workspace_id', '=', tenant.workspace.id).execute()).rejects.toThrow(/workspace_channels_one_primary/);
});

it("marks videos with the caller's newest project and its state; another workspace's projects never show", async () => {
  const [mine, theirs] = [await createTenant(api.db), await createTenant(api.db)];
  const channel = channelId();
  await connect(api.db, mine.workspace.id, channel);
  await connect(api.db, theirs.workspace.id, channel);
  const [pending, verified, failed, others] = await mirror(api.db, channel, ['Pending one', 'Verified one', 'Failed one', 'Only theirs']);

  const older = await projectFor(api.db, mine, pending!, { status: 'failed', usage_state: 'released' });
  const newest = await projectFor(api.db, mine, pending!, { status: 'validating', usage_state: 'pending_validation' });
  const charged = await projectFor(api.db, mine, verified!, { status: 'completed', usage_state: 'charged' });
  const unusable = await projectFor(api.db, mine, failed!, { status: 'failed', usage_state: 'released' });
  await projectFor(api.db, theirs, others!, { status: 'completed', usage_state: 'charged' });

  const items = new Map<string, any>((await list(mine)).body.data.items.map((v: any) => [v.youtube_video_id, v]));
  expect(older).not.toBe(newest);
  expect(items.get(pending!).matching_project).toEqual({ project_id: newest, state: 'pending', target_locales: ['es_es', 'ca_es'] });
  expect(items.get(verified!).matching_project).toEqual({ project_id: charged, state: 'verified', target_locales: ['es_es', 'ca_es'] });
  expect(items.get(failed!).matching_project).toEqual({ project_id: unusable, state: 'failed', target_locales: ['es_es', 'ca_es'] });
  expect(items.get(others!).matching_project).toBeUndefined();
  expect((await list(theirs)).body.data.items.find((v: any) => v.youtube_video_id === others).matching_project.state).toBe('verified');
});

it('a remembered channel is checked on every request: a disconnect or a new primary shows on the next one', async () => {
  const tenant = await createTenant(api.db);
  const [first, second] = [channelId(), channelId()];
  await connect(api.db, tenant.workspace.id, first);
  const [video] = await mirror(api.db, first, ['First channel video']);

  // Twice: a repeated request answers the same.
  for (let i = 0; i < 2; i++) {
    const res = await list(tenant);
    expect(res.status).toBe(200);
    expect(res.body.data.channel.channel_id).toBe(first);
    expect(res.body.data.items.map((v: any) => v.youtube_video_id)).toEqual([video]);
  }

  // Another channel becomes the primary: the next request lists it, not the remembered one.
  await connect(api.db, tenant.workspace.id, second, true);
  await mirror(api.db, second, ['Second channel video']);
  const moved = await list(tenant);
  expect(moved.body.data.channel.channel_id).toBe(second);
  expect(moved.body.data.items.map((v: any) => v.title)).toEqual(['Second channel video']);
  // The first is still connected, so naming it still works.
  expect((await list(tenant, `?channel_id=${first}`)).body.data.channel.channel_id).toBe(first);

  // Both disconnected: neither lists any more.
  await api.db.transaction().execute(async (trx) => {
    await disconnectChannel(trx, tenant.workspace.id, first);
    await disconnectChannel(trx, tenant.workspace.id, second);
  });
  const gone = await list(tenant);
  expect(gone.status).toBe(200);
  expect(gone.body).toEqual({ data: { connection_required: true, channel: null, items: [] } });
  const named = await list(tenant, `?channel_id=${first}`);
  expect(named.status).toBe(404);
  expect(named.body.error).toMatchObject({ type: 'not_found_error', param: 'channel_id' });
  expect(await api.db.selectFrom('workspace_channels').select('channel_id').where('workspace_id', '=', tenant.workspace.id).execute()).toEqual([]);
});

it('a remembered search follows the mirror at once: a new video, a video gone private, a new project', async () => {
  const tenant = await createTenant(api.db);
  const channel = channelId();
  await connect(api.db, tenant.workspace.id, channel);
  const [older] = await mirror(api.db, channel, ['Soup for winter']);
  const search = async () => (await list(tenant, '?query=soup')).body.data.items as any[];
  const version = async () => (await api.db.selectFrom('youtube_channels').select('mirror_version').where('id', '=', channel).executeTakeFirstOrThrow()).mirror_version;

  // Asked twice: a repeated search answers the same.
  expect((await search()).map((v) => v.youtube_video_id)).toEqual([older]);
  expect((await search()).map((v) => v.youtube_video_id)).toEqual([older]);
  const before = await version();

  // A sync writes a newer matching video: the trigger moves the version, the next search shows it.
  const newer = videoId();
  await upsertVideos(api.db, [
    {
      id: newer,
      channel_id: channel,
      title: 'Soup, the sequel',
      description: '',
      published_at: new Date(Date.UTC(2026, 10, 22)),
      duration_seconds: 90,
      availability: 'available',
      unavailable_reason: null,
    },
  ]);
  expect(await version()).toBeGreaterThan(before);
  expect((await search()).map((v) => v.youtube_video_id)).toEqual([newer, older]);

  // The older video turns private: its availability shows on the next search.
  await api.db.updateTable('youtube_videos').set({ availability: 'private', unavailable_reason: 'private' }).where('id', '=', older!).execute();
  expect((await search()).map((v) => [v.youtube_video_id, v.availability])).toEqual([
    [newer, 'available'],
    [older, 'private'],
  ]);

  // A project created now shows on the next search...
  const project = await projectFor(api.db, tenant, newer, { status: 'validating', usage_state: 'pending_validation' });
  expect((await search())[0].matching_project).toEqual({ project_id: project, state: 'pending', target_locales: ['es_es', 'ca_es'] });
  expect((await search())[0].matching_project.state).toBe('pending');
  // ...as does its state moving on, a language added, and the project gone.
  await api.db.updateTable('projects').set({ status: 'processing', usage_state: 'charged' }).where('id', '=', project).execute();
  expect((await search())[0].matching_project).toEqual({ project_id: project, state: 'verified', target_locales: ['es_es', 'ca_es'] });
  await api.db
    .updateTable('projects')
    .set({ target_locales: ['es_es', 'ca_es', 'fr_fr'] })
    .where('id', '=', project)
    .execute();
  expect((await search())[0].matching_project.target_locales).toEqual(['es_es', 'ca_es', 'fr_fr']);
  await api.db.deleteFrom('projects').where('id', '=', project).execute();
  expect((await search()).map((v) => v.matching_project)).toEqual([undefined, undefined]);

  // Another workspace's project on the same video is never shown here.
  const neighbour = await createTenant(api.db);
  await connect(api.db, neighbour.workspace.id, channel);
  await projectFor(api.db, neighbour, newer, { status: 'completed', usage_state: 'charged' });
  expect((await search()).map((v) => v.matching_project)).toEqual([undefined, undefined]);
  expect((await list(neighbour, '?query=soup')).body.data.items[0].matching_project.state).toBe('verified');
});
