import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createDb, type Db } from '../../src/db/create-db';
import { connectChannel, upsertVideos, videoReads, type ChannelVideoRequest, type PageContextRequest, type VideoReads } from '../../src/db/youtube';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// The video search's per-request reads on the real database: requests that arrive together share
// one statement, and each still gets exactly the answer it would get alone (its own workspace's
// connection and projects, never a neighbour's).

const applicationName = `video-reads-${randomUUID().slice(0, 8)}`;
let db: Db;
let reads: VideoReads;
beforeAll(() => {
  db = createDb({ url: testConfig().database.url!, poolMax: 10, applicationName });
  reads = videoReads(db);
});
afterAll(() => db.destroy());

const newChannelId = () => `UC${randomUUID().replace(/-/g, '').slice(0, 22)}`;
const newVideoId = () => randomUUID().replace(/-/g, '').slice(0, 11);

interface World {
  tenants: TestTenant[];
  channels: string[];
  videos: string[];
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
  for (const [c, channel] of channels.entries()) {
    const ids = [newVideoId(), newVideoId(), newVideoId()];
    videos.push(...ids);
    await upsertVideos(db, ids.map((id, i) => ({ id, channel_id: channel, title: `Video ${c}.${i}`, description: '', published_at: new Date(Date.UTC(2026, 10, 1 + i)), duration_seconds: 30 + i, availability: 'available' as const, unavailable_reason: null })));
  }
  const project = (tenant: TestTenant, video: string, usage_state: string) => {
    const id = randomUUID();
    return db.insertInto('projects').values({
      id, workspace_id: tenant.workspace.id, name: 'p', source_type: 'youtube', source_url: `https://youtu.be/${video}`, youtube_video_id: video,
      source_locale: 'en_us', target_locales: ['es_es'], status: 'processing', phase: 'validating', max_billable_seconds: 600,
      credits_per_second: 10, usage_state: usage_state as any, hold_reference: `${id}:hold`,
    }).execute();
  };
  await project(tenants[0]!, videos[0]!, 'pending_validation');
  await project(tenants[0]!, videos[0]!, 'charged'); // the newer one is the match
  await project(tenants[1]!, videos[1]!, 'charged');
  await project(tenants[0]!, videos[3]!, 'pending_validation');
  return { tenants, channels, videos };
}

let world: World;
beforeAll(async () => { world = await seedWorld(); });

const sameAnswer = <T>(value: T) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v.entries()] : v)));

it('reads that arrive together share one statement on one connection, each with its own answer', async () => {
  const [first, second] = world.tenants;
  const requests: ChannelVideoRequest[] = Array.from({ length: 20 }, (_, i) => ({
    workspaceId: (i % 2 === 0 ? first! : second!).workspace.id, channelId: world.channels[0]!, primary: false, videoId: world.videos[i % 3]!,
  }));
  const pages = await Promise.all(requests.map((request) => reads.channelVideo(request)));
  // One statement needs one connection; twenty sent apart would have opened all ten.
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`.execute(db);
  expect(rows[0]!.n).toBe(1);
  for (const [i, page] of pages.entries()) {
    expect(page.videos.map((v) => v.id)).toEqual([world.videos[i % 3]]);
    const match = page.context.matches.get(world.videos[i % 3]!);
    // The first workspace's newest project on video 0, the second's on video 1: never the other's.
    if (i % 2 === 0) expect(match?.usage_state).toBe(i % 3 === 0 ? 'charged' : undefined);
    else expect(match?.usage_state).toBe(i % 3 === 1 ? 'charged' : undefined);
  }
});

it('answers a batch exactly as it answers each request alone', async () => {
  const workspace = fc.constantFrom(...world.tenants.map((t) => t.workspace.id));
  const channel = fc.constantFrom(...world.channels);
  const video = fc.constantFrom(...world.videos, 'unmirrored0', 'Zz_-0123456');
  const videoRequest = fc.record({ workspaceId: workspace, channelId: channel, primary: fc.boolean(), videoId: video });
  // Known versions: none, the workspace's current one (the matches are left out), 0, or one never issued.
  const versions = await db.selectFrom('workspace_youtube_versions').select('version').where('workspace_id', 'in', world.tenants.map((t) => t.workspace.id)).execute();
  const knownProjectsVersion = fc.option(fc.constantFrom(0, -1, ...versions.map((v) => v.version)), { nil: null });
  const contextRequest = fc.record({ workspaceId: workspace, channelId: channel, primary: fc.boolean(), videoIds: fc.uniqueArray(video, { maxLength: 6 }), knownProjectsVersion });
  await fc.assert(
    fc.asyncProperty(fc.array(videoRequest, { minLength: 1, maxLength: 12 }), fc.array(contextRequest, { minLength: 1, maxLength: 12 }), async (videoRequests: ChannelVideoRequest[], contextRequests: PageContextRequest[]) => {
      const together = await Promise.all([Promise.all(videoRequests.map(reads.channelVideo)), Promise.all(contextRequests.map(reads.pageContext))]);
      const alone: [unknown[], unknown[]] = [[], []];
      for (const request of videoRequests) alone[0].push(await reads.channelVideo(request));
      for (const request of contextRequests) alone[1].push(await reads.pageContext(request));
      expect(sameAnswer(together)).toEqual(sameAnswer(alone));
    }),
    { numRuns: 25 },
  );
});

it('a request whose value PostgreSQL refuses fails alone; the requests beside it are answered', async () => {
  const [first] = world.tenants;
  const good: ChannelVideoRequest = { workspaceId: first!.workspace.id, channelId: world.channels[0]!, primary: true, videoId: world.videos[0]! };
  const settled = await Promise.allSettled([reads.channelVideo(good), reads.channelVideo({ ...good, workspaceId: 'not-a-uuid' }), reads.channelVideo(good)]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' }); // invalid_text_representation
  for (const s of [settled[0], settled[2]] as PromiseFulfilledResult<Awaited<ReturnType<VideoReads['channelVideo']>>>[]) {
    expect(s.value.context.connected).toBe(true);
    expect(s.value.context.matches.get(world.videos[0]!)?.usage_state).toBe('charged');
  }
});

it('lone reads run the generic plan, not a fresh plan per call', async () => {
  const [first] = world.tenants;
  const request = { workspaceId: first!.workspace.id, channelId: world.channels[0]!, primary: true };
  // One read at a time: each is a batch of one, on the pool's most recently used connection.
  for (let n = 0; n < 10; n++) {
    await reads.channelVideo({ ...request, videoId: world.videos[n % 3]! });
    await reads.pageContext({ ...request, videoIds: world.videos.slice(0, 1 + (n % 3)), knownProjectsVersion: n % 2 === 0 ? null : 0 });
  }
  const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
    select statement, generic_plans, custom_plans from pg_prepared_statements
    where statement like '%json_to_recordset($1::json)%' and statement not like '%pg_prepared_statements%'`.execute(db);
  // PostgreSQL tries five custom plans first; after that, the generic plan is the cheaper one.
  expect(rows).toHaveLength(2);
  for (const row of rows) {
    expect(Number(row.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(row.generic_plans)).toBeGreaterThanOrEqual(5);
  }
});

it("probes a page's matching projects only when the workspace's YouTube projects moved since the known version", async () => {
  const [first] = world.tenants;
  const versionOf = async (workspaceId: string) =>
    (await db.selectFrom('workspace_youtube_versions').select('version').where('workspace_id', '=', workspaceId).executeTakeFirst())?.version;
  const current = (await versionOf(first!.workspace.id))!;
  expect(current).toBeGreaterThan(0);
  const request: PageContextRequest = { workspaceId: first!.workspace.id, channelId: world.channels[0]!, primary: true, videoIds: world.videos.slice(0, 3), knownProjectsVersion: null };

  const fresh = await reads.pageContext(request);
  expect(fresh.projectsVersion).toBe(current);
  expect([...fresh.matches!.keys()]).toEqual([world.videos[0]]);
  // Still at the known version: the remembered matches stand, nothing probed.
  const unchanged = await reads.pageContext({ ...request, knownProjectsVersion: current });
  expect(unchanged).toEqual({ connected: true, mirrorVersion: fresh.mirrorVersion, projectsVersion: current, matches: undefined });
  // Another version (an older one, or 0 for "no project ever"): probed.
  expect((await reads.pageContext({ ...request, knownProjectsVersion: 0 })).matches).toEqual(fresh.matches);

  // A workspace without a YouTube project has no row: version 0, and 0 known means nothing to probe.
  const empty = await createTenant(db);
  expect(await versionOf(empty.workspace.id)).toBeUndefined();
  const none = await reads.pageContext({ ...request, workspaceId: empty.workspace.id, primary: false, knownProjectsVersion: 0 });
  expect(none).toMatchObject({ connected: false, projectsVersion: 0, matches: undefined });
});
