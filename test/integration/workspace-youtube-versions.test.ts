import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDb, type Db } from '../../src/db/create-db';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { testConfig } from '../helpers/test-api';

// workspace_youtube_versions (migration 0020) on the real database: every write that can change a
// workspace's matching projects gives its version a value never seen before, in the same
// transaction; writes that cannot change a match leave it alone. The video search trusts its
// remembered matches on this alone (test/integration/youtube-videos.test.ts over HTTP).

let db: Db;
beforeAll(() => { db = createDb({ url: testConfig().database.url!, poolMax: 2 }); });
afterAll(() => db.destroy());

const versionOf = async (tenant: TestTenant) =>
  (await db.selectFrom('workspace_youtube_versions').select('version').where('workspace_id', '=', tenant.workspace.id).executeTakeFirst())?.version;

async function insertProject(tenant: TestTenant, youtubeVideoId: string | null): Promise<string> {
  const id = randomUUID();
  await db.insertInto('projects').values({
    id, workspace_id: tenant.workspace.id, name: 'p', source_type: youtubeVideoId ? 'youtube' : 'upload',
    source_url: youtubeVideoId ? `https://youtu.be/${youtubeVideoId}` : null, youtube_video_id: youtubeVideoId,
    source_locale: 'en_us', target_locales: ['es_es'], status: 'validating', phase: 'validating', max_billable_seconds: 600,
    credits_per_second: 10, usage_state: 'pending_validation', hold_reference: `${id}:hold`,
  }).execute();
  return id;
}

const videoId = () => randomUUID().replace(/-/g, '').slice(0, 11);

it('moves with every write that can change a match, to a value never used before', async () => {
  const tenant = await createTenant(db);
  expect(await versionOf(tenant)).toBeUndefined(); // no YouTube project yet: reads as 0

  const seen = new Set<number>();
  const expectMoved = async () => {
    const version = await versionOf(tenant);
    expect(version).toBeDefined();
    expect(seen.has(version!)).toBe(false);
    seen.add(version!);
  };
  const project = await insertProject(tenant, videoId());
  await expectMoved();
  const update = (changes: Record<string, unknown>) => db.updateTable('projects').set(changes).where('id', '=', project).execute();
  await update({ status: 'processing' });
  await expectMoved();
  await update({ usage_state: 'charged' });
  await expectMoved();
  await update({ target_locales: ['es_es', 'fr_fr'] });
  await expectMoved();
  await update({ youtube_video_id: videoId() });
  await expectMoved();
  await update({ youtube_video_id: null }); // no longer a YouTube match at all
  await expectMoved();
  await update({ youtube_video_id: videoId() });
  await expectMoved();
  await db.deleteFrom('projects').where('id', '=', project).execute();
  await expectMoved();
});

it('stays put for writes that cannot change a match, and for other workspaces', async () => {
  const [mine, theirs] = [await createTenant(db), await createTenant(db)];
  const project = await insertProject(mine, videoId());
  const before = await versionOf(mine);

  // A phase, the same status again, a view_version bump by a child row's trigger: no match changes.
  await db.updateTable('projects').set({ phase: 'fetching' }).where('id', '=', project).execute();
  await db.updateTable('projects').set({ status: 'validating' }).where('id', '=', project).execute();
  await sql`update projects set view_version = view_version where id = ${project}`.execute(db);
  // An upload project of the same workspace, and a YouTube project of another.
  const upload = await insertProject(mine, null);
  await db.updateTable('projects').set({ status: 'failed' }).where('id', '=', upload).execute();
  await insertProject(theirs, videoId());

  expect(await versionOf(mine)).toBe(before);
  expect(await versionOf(theirs)).toBeDefined();
  expect(await versionOf(theirs)).not.toBe(before);
});

it('moves in the same transaction as the write: a rolled-back write leaves it as it was', async () => {
  const tenant = await createTenant(db);
  const project = await insertProject(tenant, videoId());
  const before = await versionOf(tenant);
  await expect(db.transaction().execute(async (trx) => {
    await trx.updateTable('projects').set({ usage_state: 'charged' }).where('id', '=', project).execute();
    const inside = await trx.selectFrom('workspace_youtube_versions').select('version').where('workspace_id', '=', tenant.workspace.id).executeTakeFirstOrThrow();
    expect(inside.version).not.toBe(before);
    throw new Error('roll back');
  })).rejects.toThrow('roll back');
  expect(await versionOf(tenant)).toBe(before);
  expect((await db.selectFrom('projects').select('usage_state').where('id', '=', project).executeTakeFirstOrThrow()).usage_state).toBe('pending_validation');
});
