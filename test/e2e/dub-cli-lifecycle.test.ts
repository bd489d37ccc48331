import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { blobKeys } from '../../src/db/uploads';
import { makeBusyVideo } from '../helpers/busy-video';
import { dubEnv, ROOT, runDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { STORAGE_DRIVERS, storageEnv, UPLOAD_SETUPS } from '../helpers/storage-drivers';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// `dub cancel`, `dub wait`, `dub delete` (docs/cli.md) as a person runs them, a child process
// against the real stack, on both storage drivers: a project created and uploaded by `dub create`
// is cancelled while it validates (no worker yet), settles once a worker runs, and its deletion
// leaves no source in the store, while the ledger keeps the hold and its release.

let dir: string;
beforeAll(() => {
  dir = makeTempDir('dub-cli-lifecycle');
});
afterAll(() => {
  if (dir) removeTempDir(dir);
});

describe.each(STORAGE_DRIVERS)('dub cancel, wait and delete on the %s storage driver', (driver) => {
  let api: TestApi;
  let worker: TestWorker | undefined;
  let tenant: TestTenant;
  const storage = { ...storageEnv(driver), UPLOAD_PART_SIZE_BYTES: String(UPLOAD_SETUPS[driver].partSize) };
  const env = () => dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });
  const ledger = async (projectId: string) =>
    (await api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute()).map((r) => `${r.kind}:${r.amount}`);

  beforeAll(async () => {
    api = await startTestApi(storage);
    tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
  });

  it('cancels a project while it validates, follows it until settled, then deletes it and its source', async () => {
    const work = path.join(dir, driver);
    mkdirSync(work);
    const video = await makeBusyVideo(work, 'Lesson.mp4', 'Hello everyone and welcome to the kitchen.', UPLOAD_SETUPS[driver].videoMiB);

    const created = await runDub(['create', video, '--to', 'es_es', '--max-seconds', '60'], { cwd: work, env: env() });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const projectId = /Created project ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? '';
    expect(projectId).not.toBe('');
    // What the store holds of it: the source (s3 assembles it at upload/complete) or the parts
    // (the local driver keeps them until the worker joins them).
    const upload = await api.db.selectFrom('uploads').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow();
    const partKeys = (await api.db.selectFrom('upload_parts').select(['upload_id', 'part_number', 'storage_key']).where('upload_id', '=', upload.id).execute()).map((p) => blobKeys.storedPart(p));
    const storedBlobs = async () => (await Promise.all([blobKeys.source(projectId), ...partKeys].map((key) => api.blobStore.stat(key)))).filter((s) => s !== null).length;
    expect(await storedBlobs()).toBeGreaterThan(0);

    // A project at work cannot be deleted: the CLI says to cancel first (exit 1, one line).
    const early = await runDub(['delete', projectId, '--yes'], { cwd: work, env: env() });
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('cancel it first');
    expect(early.stderr).toContain('project_in_progress');

    const cancelled = await runDub(['cancel', projectId, '--no-wait'], { cwd: work, env: env() });
    expect(cancelled.stderr).toBe('');
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain(`Cancel requested; project ${projectId} is validating while it settles`);

    // A worker settles it: the hold is released, nothing charged; `dub wait` sees it end failed (exit 3).
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env: storage });
    const waited = await runDub(['wait', projectId, '--out', path.join(work, 'out')], { cwd: work, env: env() });
    expect(waited.code).toBe(3);
    expect(waited.stdout + waited.stderr).toContain('failed');
    expect(await ledger(projectId)).toEqual(['hold:600', 'release:600']);
    const again = await runDub(['cancel', projectId], { cwd: work, env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Project ${projectId} is failed`);
    expect(again.stdout).toContain('usage released');

    const status = await runDub(['status', projectId, '--json'], { cwd: work, env: env() });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ id: projectId, status: 'failed', failure: { code: 'cancelled' } });

    // Not a terminal and no --yes: nothing deleted.
    const unsure = await runDub(['delete', projectId], { cwd: work, env: env() });
    expect(unsure.code).toBe(1);
    expect(unsure.stderr).toContain('Nothing deleted');
    const deleted = await runDub(['delete', projectId, '--yes'], { cwd: work, env: env() });
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`Deleted project ${projectId}.`);
    expect(await storedBlobs()).toBe(0);
    expect(await ledger(projectId)).toEqual(['hold:600', 'release:600']);
    const gone = await runDub(['status', projectId], { cwd: work, env: env() });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('not_found');
    const listed = await runDub(['list', '--json'], { cwd: work, env: env() });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((p) => p.id)).not.toContain(projectId);
  }, 300_000);
});

it("dub --version prints the package version; dub locales --json prints the API's list", async () => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const printed = await runDub(['--version'], { cwd: dir, env: dubEnv({ apiKey: 'dk_unused', baseUrl: 'http://127.0.0.1:9' }) });
  expect(printed.code).toBe(0);
  expect(printed.stdout.trim()).toBe(version);
  const api = await startTestApi();
  try {
    const tenant = await createTenant(api.db);
    const locales = await runDub(['locales', '--json'], { cwd: dir, env: dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl }) });
    expect(locales.code).toBe(0);
    const list = JSON.parse(locales.stdout) as { locale: string; usable_as_target: boolean }[];
    expect(list.map((l) => l.locale)).toContain('es_es');
  } finally {
    await api.close();
  }
}, 60_000);
