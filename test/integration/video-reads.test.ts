import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Pool } from 'pg';
import { createDb, createPool, type Db } from '../../src/db/create-db';
import { connectChannel, findConnectedChannel, findMatchingProjects, listVideos, upsertVideos } from '../../src/db/youtube';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// The video search's reads on the real database (the connection, the page, the matching
// projects): reads of many workspaces at once each get exactly their own answer (their own
// workspace's connection and projects, never a neighbour's).

const applicationName = `video-reads-${randomUUID().slice(0, 8)}`;
let pool: Pool;
let db: Db;
beforeAll(() => {
  pool = createPool({ url: testConfig().database.url!, poolMax: 10, applicationName });
  db = createDb(pool);
});
afterAll(() => db.destroy());

const newChannelId = () => `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const newVideoId = () => randomUUID().replace(/-/g, '').slice(0, 11);

interface World {
  tenants: TestTenant[];
  channels: string[];
  videos: string[];
  /** Each video's channel, and each workspace's newest project per video (by usage state). */
  channelOf: Map<string, string>;
  newest: Map<string, string>;
}

/**
 * Two workspaces; three channels (the first connected to both, as the first workspace's primary;
 * the second to the first workspace only; the third to nobody); videos on each channel; projects
 * of either workspace on some of them, a video with two projects of one workspace among them.
 */
async function seedWorld(): Promise<World> {
  const tenants = [await createTenant(db), await createTenant(db)];
  const channels = [newChannelId(), newChannelId(), newChannelId()];
  const connect = (workspaceId: string, id: string, primary: boolean) =>
    db.transaction().execute((trx) => connectChannel(trx, { workspaceId, channel: { id, title: `Channel ${id.slice(2, 8)}`, handle: null, uploads_playlist_id: `UU${id.slice(2)}` }, primary }));
  await connect(tenants[0]!.workspace.id, channels[0]!, true);
  await connect(tenants[0]!.workspace.id, channels[1]!, false);
  await connect(tenants[1]!.workspace.id, channels[0]!, false);
  await sql`insert into youtube_channels (id, title, uploads_playlist_id) values (${channels[2]!}, 'Unconnected', ${`UU${channels[2]!.slice(2)}`})`.execute(db);
  const videos: string[] = [];
  const channelOf = new Map<string, string>();
  for (const [c, channel] of channels.entries()) {
    const ids = [newVideoId(), newVideoId(), newVideoId()];
    videos.push(...ids);
    for (const id of ids) channelOf.set(id, channel);
    await upsertVideos(
      db,
      ids.map((id, i) => ({
        id,
        channel_id: channel,
        title: `Video ${c}.${i}`,
        description: '',
        published_at: new Date(Date.UTC(2026, 10, 1 + i)),
        duration_seconds: 30 + i,
        availability: 'available' as const,
        unavailable_reason: null,
      })),
    );
  }
  const project = (tenant: TestTenant, video: string, usage_state: string) => {
    const id = randomUUID();
    return db
      .insertInto('projects')
      .values({
        id,
        workspace_id: tenant.workspace.id,
        name: 'p',
        source_type: 'youtube',
        source_url: `https://youtu.be/${video}`,
        youtube_video_id: video,
        source_locale: 'en_us',
        target_locales: ['es_es'],
        status: 'processing',
        phase: 'validating',
        max_billable_seconds: 600,
        credits_per_second: 10,
        usage_state: usage_state as any,
        hold_reference: `${id}:hold`,
      })
      .execute();
  };
  await project(tenants[0]!, videos[0]!, 'pending_validation');
  await project(tenants[0]!, videos[0]!, 'charged'); // the newer one is the match
  await project(tenants[1]!, videos[1]!, 'charged');
  await project(tenants[0]!, videos[3]!, 'pending_validation');
  const newest = new Map([
    [`${tenants[0]!.workspace.id} ${videos[0]!}`, 'charged'],
    [`${tenants[1]!.workspace.id} ${videos[1]!}`, 'charged'],
    [`${tenants[0]!.workspace.id} ${videos[3]!}`, 'pending_validation'],
  ]);
  return { tenants, channels, videos, channelOf, newest };
}

let world: World;
beforeAll(async () => {
  world = await seedWorld();
});

/** One search as the route makes it: the connection, then the exact video's page, then its matches. */
async function exactSearch(request: { workspaceId: string; channelId?: string; videoId: string }) {
  const channel = await findConnectedChannel(pool, request.workspaceId, request.channelId);
  if (!channel) return { channel: undefined, videos: [], matches: new Map() };
  const videos = await listVideos(pool, { channelId: channel.id, videoId: request.videoId, limit: 20 });
  const matches = await findMatchingProjects(
    pool,
    request.workspaceId,
    videos.map((v) => v.id),
  );
  return { channel: channel.id, videos: videos.map((v) => v.id), matches: new Map([...matches].map(([id, m]) => [id, m.usage_state])) };
}

it("reads of two workspaces at once each answer their own workspace's projects", async () => {
  const [first, second] = world.tenants;
  const requests = Array.from({ length: 20 }, (_, i) => ({
    workspaceId: (i % 2 === 0 ? first! : second!).workspace.id,
    channelId: world.channels[0]!,
    videoId: world.videos[i % 3]!,
  }));
  const pages = await Promise.all(requests.map(exactSearch));
  for (const [i, page] of pages.entries()) {
    expect(page.videos).toEqual([world.videos[i % 3]]);
    const match = page.matches.get(world.videos[i % 3]!);
    // The first workspace's newest project on video 0, the second's on video 1: never the other's.
    if (i % 2 === 0) expect(match).toBe(i % 3 === 0 ? 'charged' : undefined);
    else expect(match).toBe(i % 3 === 1 ? 'charged' : undefined);
  }
});

it('answers any mix of workspaces, channels and ids as the seeded world says (property)', async () => {
  const connected = new Map<string, Set<string>>([
    [world.tenants[0]!.workspace.id, new Set([world.channels[0]!, world.channels[1]!])],
    [world.tenants[1]!.workspace.id, new Set([world.channels[0]!])],
  ]);
  // A workspace's first channel is its primary, asked for or not.
  const primary = new Map(world.tenants.map((t) => [t.workspace.id, world.channels[0]!]));
  const request = fc.record({
    workspaceId: fc.constantFrom(...world.tenants.map((t) => t.workspace.id)),
    channelId: fc.option(fc.constantFrom(...world.channels), { nil: undefined }),
    videoId: fc.constantFrom(...world.videos, 'unmirrored0', 'Zz_-0123456'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (requests) => {
      const pages = await Promise.all(requests.map(exactSearch));
      for (const [i, { workspaceId, channelId, videoId }] of requests.entries()) {
        const channel = channelId === undefined ? primary.get(workspaceId) : connected.get(workspaceId)!.has(channelId) ? channelId : undefined;
        const videos = channel !== undefined && world.channelOf.get(videoId) === channel ? [videoId] : [];
        const match = videos.length > 0 ? world.newest.get(`${workspaceId} ${videoId}`) : undefined;
        expect(pages[i]).toEqual({ channel, videos, matches: new Map(match ? [[videoId, match]] : []) });
      }
    }),
    { numRuns: 25 },
  );
});

it('a read whose value PostgreSQL refuses fails alone; the reads beside it are answered', async () => {
  const [first] = world.tenants;
  const good = { workspaceId: first!.workspace.id, videoId: world.videos[0]! };
  const settled = await Promise.allSettled([exactSearch(good), exactSearch({ ...good, workspaceId: 'not-a-uuid' }), exactSearch(good)]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' }); // invalid_text_representation
  for (const s of [settled[0], settled[2]] as PromiseFulfilledResult<Awaited<ReturnType<typeof exactSearch>>>[]) {
    expect(s.value.channel).toBe(world.channels[0]);
    expect(s.value.matches.get(world.videos[0]!)).toBe('charged');
  }
});

it('a title search reads the page newest first, and the matches of the whole page in one read', async () => {
  const [first] = world.tenants;
  const page = await listVideos(pool, { channelId: world.channels[0]!, query: 'video 0.', limit: 20 });
  expect(page.map((v) => v.id)).toEqual(world.videos.slice(0, 3).reverse());
  const matches = await findMatchingProjects(pool, first!.workspace.id, [...page.map((v) => v.id), world.videos[3]!, 'unmirrored0']);
  expect(new Map([...matches].map(([id, m]) => [id, m.usage_state]))).toEqual(
    new Map([
      [world.videos[0]!, 'charged'],
      [world.videos[3]!, 'pending_validation'],
    ]),
  );
  expect(await findMatchingProjects(pool, first!.workspace.id, [])).toEqual(new Map());
});
