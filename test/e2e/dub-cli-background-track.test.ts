import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sourceKeys } from '../../src/shared/source-keys';
import { dubEnv, runDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { STORAGE_DRIVERS, storageEnv, UPLOAD_SETUPS } from '../helpers/storage-drivers';
import { startTestApi, type TestApi } from '../helpers/test-api';

// `dub create <video> --background-track <file>` (docs/cli.md) as a person runs it, against the
// real API on both storage drivers: the track is uploaded and completed first, then the video,
// and the project validates. No worker: what the track does to the mix is
// test/integration/background-track.test.ts's.

let dir: string;
beforeAll(() => {
  dir = makeTempDir('dub-cli-track');
});
afterAll(() => {
  if (dir) removeTempDir(dir);
});

describe.each(STORAGE_DRIVERS)('dub create --background-track on the %s storage driver', (driver) => {
  let api: TestApi;
  let tenant: TestTenant;
  const env = () => dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });

  beforeAll(async () => {
    api = await startTestApi({ ...storageEnv(driver), UPLOAD_PART_SIZE_BYTES: String(UPLOAD_SETUPS[driver].partSize) });
    tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('uploads and completes the track, then the video; the same command again creates nothing', async () => {
    const work = path.join(dir, driver);
    mkdirSync(work);
    // Bytes only: nothing probes them without a worker. The track spans several parts on the local driver.
    writeFileSync(path.join(work, 'film.mp4'), randomBytes(100_000));
    writeFileSync(path.join(work, 'film-me.wav'), randomBytes(150_000));

    const args = ['create', 'film.mp4', '--to', 'es_es', '--max-seconds', '10', '--background-track', 'film-me.wav'];
    const run = await runDub(args, { cwd: work, env: env() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const projectId = /Created project ([0-9a-f-]{36})/.exec(run.stdout)?.[1] ?? '';
    expect(projectId).not.toBe('');
    expect(run.stdout).toContain('Uploading the background track film-me.wav.');
    expect(run.stdout).toContain(`Upload completed; project ${projectId} is validating.`);

    const uploads = await api.db.selectFrom('uploads').select(['role', 'file_name', 'size_bytes', 'part_count', 'completed_at']).where('project_id', '=', projectId).orderBy('role').execute();
    expect(uploads.map((u) => [u.role, u.file_name, u.size_bytes, u.completed_at !== null])).toEqual([
      ['background_track', 'film-me.wav', 150_000, true],
      ['source', 'film.mp4', 100_000, true],
    ]);
    if (driver === 'local') expect(uploads[0]!.part_count).toBeGreaterThan(1);
    // s3 joins the parts at complete, each upload into its own object.
    if (driver === 's3') {
      expect((await api.blobStore.stat(sourceKeys.backgroundTrack(projectId)))?.sizeBytes).toBe(150_000);
      expect((await api.blobStore.stat(sourceKeys.media(projectId)))?.sizeBytes).toBe(100_000);
    }
    const status = await runDub(['status', projectId, '--json'], { cwd: work, env: env() });
    expect(JSON.parse(status.stdout)).toMatchObject({ id: projectId, status: 'validating', background_track: { file_name: 'film-me.wav', size_bytes: 150_000 } });

    const again = await runDub(args, { cwd: work, env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Project ${projectId} was already created and uploaded from this file with these options`);
    // Without the track it is another request: named, not guessed.
    const without = await runDub(['create', 'film.mp4', '--to', 'es_es', '--max-seconds', '10'], { cwd: work, env: env() });
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--background-track film-me.wav');
    expect(await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).execute()).toHaveLength(1);
  }, 120_000);
});
