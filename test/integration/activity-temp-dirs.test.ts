import { mkdirSync, readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createProjectActivities } from '../../src/activities/project.activities';
import { blobKeys } from '../../src/db/uploads';
import { createLocalEngines } from '../../src/engines';
import { createTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir, spokenClip } from '../helpers/media-fixtures';
import { createProject, projectBody } from '../helpers/projects';
import { storageEnv } from '../helpers/storage-drivers';
import { startTestApi, type TestApi } from '../helpers/test-api';

// On the s3 driver a worker streams the source from the store into a temp dir of the activity's
// own. That dir must be gone however the activity ends: success, failure, or cancellation in the
// middle of the download. The activity runs in Temporal's mock activity environment, with
// TMPDIR pointed at a folder of this test's, so what it leaves behind is plain to see.

let api: TestApi;
let dir: string;
let tmp: string;
let clip: Buffer;
const savedTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  dir = makeTempDir('activity-temp-dirs');
  clip = await spokenClip(dir, 'A short clip to probe.', 2);
  tmp = `${dir}/activity-tmp`;
  mkdirSync(tmp);
  api = await startTestApi(storageEnv('s3'));
});
afterAll(async () => {
  process.env.TMPDIR = savedTmpdir;
  await api?.close();
  removeTempDir(dir);
});

/** A YouTube project whose downloaded source is `bytes` in the store, as prepareSource finds it. */
async function projectWithSource(bytes: Buffer): Promise<string> {
  const tenant = await createTenant(api.db, { credits: 10_000 });
  const created = await createProject(api, tenant, projectBody({ source: { type: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' } }));
  expect(created.status).toBe(201);
  await api.blobStore.put(blobKeys.source(created.body.data.id), Readable.from([bytes]));
  return created.body.data.id;
}

/** prepareSource in an activity context whose temp dirs go to `tmp`. */
async function runPrepareSource(env: MockActivityEnvironment, projectId: string, engines = createLocalEngines()) {
  const activities = createProjectActivities({ db: api.db, blobStore: api.blobStore, uploads: api.uploads, engines, webhooks: { publicBaseUrl: 'http://localhost' } });
  process.env.TMPDIR = tmp;
  try {
    return await env.run(activities.prepareSource, projectId);
  } finally {
    process.env.TMPDIR = savedTmpdir;
  }
}

it('removes the temp dir after a successful probe of a source streamed from the store', async () => {
  const id = await projectWithSource(clip);
  await expect(runPrepareSource(new MockActivityEnvironment(), id)).resolves.toMatchObject({ ok: true, hasVideo: true });
  const row = await api.db.selectFrom('projects').select(['source_duration_seconds', 'source_has_video']).where('id', '=', id).executeTakeFirstOrThrow();
  expect(row.source_has_video).toBe(true);
  expect(row.source_duration_seconds).toBeCloseTo(2, 0);
  expect(readdirSync(tmp)).toEqual([]);
});

it('removes it when the step fails', async () => {
  const id = await projectWithSource(clip);
  const engines = createLocalEngines();
  engines.media.probe = async () => {
    throw new Error('ffprobe crashed');
  };
  await expect(runPrepareSource(new MockActivityEnvironment(), id, engines)).rejects.toThrow();
  expect(readdirSync(tmp)).toEqual([]);
});

it('stops the download and removes it when the activity is cancelled mid-transfer', async () => {
  const id = await projectWithSource(Buffer.concat([clip, Buffer.alloc(40 * 1024 * 1024)]));
  const env = new MockActivityEnvironment();
  let heartbeats = 0;
  env.on('heartbeat', () => {
    if (++heartbeats === 1) env.cancel(); // at the first 8 MiB
  });
  await expect(runPrepareSource(env, id)).rejects.toThrow();
  expect(heartbeats).toBeLessThan(5); // stopped there, not after the whole 40 MiB (a heartbeat per 8 MiB)
  expect(readdirSync(tmp)).toEqual([]);
});
