import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProjectActivities } from '../../src/activities/project.activities';
import { getBalance } from '../../src/db/credits';
import { createLocalEngines, InvalidMediaError, type Engines } from '../../src/engines';
import { PocketsphinxRecognizer } from '../../src/engines/asr/pocketsphinx-recognizer';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { ffmpeg } from '../helpers/media-fixtures';
import { dubbingSuite } from '../helpers/dubbing-suite';
import { createProject, getProjectView, projectBody, uploadAndComplete, waitForProjectView } from '../helpers/projects';

// Every way out of the project workflow's source steps ends the project with its money settled:
// before the charge the hold is released, after it every language is refunded. Real worker,
// real dev server; the engines are real, with one part broken the way production breaks.

const CPS = 10;
const suite = dubbingSuite('source-fail-', 'The river runs past the old mill every morning.');

const useWorker = (engines: Partial<Engines>) => suite.worker.use(engines);
const getProject = (tenant: TestTenant, id: string) => getProjectView(suite.api, tenant, id);
const waitForStatus = (tenant: TestTenant, id: string, status: string, timeoutMs = 60_000) => waitForProjectView(suite.api, tenant, id, `project ${status}`, (p) => p.status === status, timeoutMs);
const ledger = async (projectId: string) =>
  (await suite.api.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('project_id', '=', projectId).orderBy('id').execute()).map((r) => `${r.kind}:${r.amount}`);

async function dub(tenant: TestTenant, bytes: Buffer, fileName: string, targets = ['es_es']) {
  const created = await createProject(suite.api, tenant, projectBody({ target_locales: targets, source: { type: 'upload', file_name: fileName, size_bytes: bytes.length } }));
  expect(created.status).toBe(201);
  expect((await uploadAndComplete(suite.api, tenant, created.body.data, bytes)).status).toBe(200);
  return created.body.data.id as string;
}

it('item 2: a source step that exhausts its attempts fails the project and releases the hold (was: validating forever, hold reserved)', async () => {
  const real = createLocalEngines().media;
  // ffprobe crashing on every attempt: a retryable failure, so the step runs out of attempts.
  const media = Object.assign(Object.create(real), {
    probe: async () => {
      throw new Error('ffprobe crashed: Segmentation fault');
    },
  });
  await useWorker({ media });
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await dub(tenant, suite.clip, 'river.mp4');

  const failed = await waitForStatus(tenant, id, 'failed', 90_000);
  expect(failed.failure).toEqual({ code: 'engine_failed', message: 'The source could not be processed by the dubbing engines; the credit hold was released and nothing was charged.' });
  expect(failed.usage).toMatchObject({ state: 'released', charged_seconds: 0 });
  expect(await ledger(id)).toEqual(['hold:600', 'release:600']);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
  const row = await suite.api.db.selectFrom('projects').select('failure_detail').where('id', '=', id).executeTakeFirstOrThrow();
  expect(row.failure_detail).toContain('Segmentation fault'); // for operators, never in the API
  expect(JSON.stringify(failed)).not.toContain('Segmentation');
}, 120_000);

it("item 2: a transcription engine that is missing fails at once, after the charge: every language failed (the platform's failure, retried free) and refunded", async () => {
  await useWorker({ asr: new PocketsphinxRecognizer({ command: '/nonexistent/pocketsphinx_continuous' }) });
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await dub(tenant, suite.clip, 'river.mp4', ['es_es', 'ca_es']);

  const failed = await waitForStatus(tenant, id, 'failed');
  const billable: number = failed.usage.billable_seconds;
  expect(billable).toBe(4);
  expect(failed.failure.code).toBe('engine_failed');
  expect(failed.usage).toMatchObject({ state: 'refunded', charged_seconds: 0, refunded_seconds: billable * 2 });
  const languages = [...failed.languages].sort((a: any, b: any) => a.locale.localeCompare(b.locale));
  // A missing engine is the platform's failure, not the source's (issue 41, item 1: was source_failed, retry charged).
  expect(languages.map((l: any) => [l.locale, l.status, l.failure.code, l.failure.retry, l.usage.refunded_seconds])).toEqual([
    ['ca_es', 'failed', 'engine_failed', 'free', billable],
    ['es_es', 'failed', 'engine_failed', 'free', billable],
  ]);
  // Charged once, refunded once per language.
  expect(await ledger(id)).toEqual([`hold:${60 * 2 * CPS}`, `capture:${billable * 2 * CPS}`, `release:${(60 - billable) * 2 * CPS}`, `refund:${billable * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
});

it("a source whose speech cannot be decoded after the charge is the source's failure: every language source_failed (retry charged) and refunded", async () => {
  const real = createLocalEngines().media;
  const media = Object.assign(Object.create(real), {
    extractAudio: async (file: string) => {
      throw new InvalidMediaError('the audio stream cannot be decoded', file, 'Invalid data found when processing input');
    },
  });
  await useWorker({ media });
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await dub(tenant, suite.clip, 'river.mp4');

  const failed = await waitForStatus(tenant, id, 'failed');
  const billable: number = failed.usage.billable_seconds;
  expect(failed.languages[0]).toMatchObject({ locale: 'es_es', status: 'failed', failure: { code: 'source_failed', retry: 'charged' }, usage: { refunded_seconds: billable } });
  expect(await ledger(id)).toEqual([`hold:${60 * CPS}`, `capture:${billable * CPS}`, `release:${(60 - billable) * CPS}`, `refund:${billable * CPS}`]);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
});

/** A Matroska file whose header claims 5e9 seconds (ffprobe believes it): a hostile duration. */
async function absurdDurationMkv(): Promise<Buffer> {
  const file = path.join(suite.dir, 'absurd.mkv');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=2', '-c:a', 'pcm_s16le', file]);
  const bytes = readFileSync(file);
  const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88])); // Segment Info › Duration, an 8-byte float in ms
  expect(at).toBeGreaterThan(0);
  bytes.writeDoubleBE(5e12, at + 3);
  writeFileSync(file, bytes);
  return bytes;
}

it('item 6: a source declaring billions of seconds is invalid media, its hold released (was: integer overflow, retried forever)', async () => {
  await useWorker({});
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const id = await dub(tenant, await absurdDurationMkv(), 'absurd.mkv');
  const failed = await waitForStatus(tenant, id, 'failed');
  expect(failed.failure.code).toBe('invalid_media');
  expect(failed.usage).toMatchObject({ state: 'released', billable_seconds: null, charged_seconds: 0 });
  expect(await ledger(id)).toEqual(['hold:600', 'release:600']);
  expect(await getBalance(suite.api.db, tenant.workspace.id)).toEqual({ granted: 10_000, captured: 0, reserved: 0 });
});

it('item 6: the charge step clamps a duration past the 32-bit column instead of failing forever', async () => {
  const tenant = await createTenant(suite.api.db, { credits: 10_000, creditsPerSecond: CPS });
  const created = await createProject(suite.api, tenant, projectBody({ source: { type: 'upload', file_name: 'a.mp4', size_bytes: 1000 } }));
  const id: string = created.body.data.id;
  await suite.api.db.updateTable('projects').set({ status: 'validating', phase: 'validating' }).where('id', '=', id).execute();
  const activities = createProjectActivities({
    db: suite.api.db,
    blobStore: suite.api.blobStore,
    uploads: suite.api.uploads,
    engines: createLocalEngines(),
    webhooks: { publicBaseUrl: 'http://localhost' },
  });
  expect(await activities.settleCharges({ projectId: id, durationSeconds: 5e9 })).toEqual({ outcome: 'limit_exceeded', billableSeconds: 2_147_483_647 });
  const project = await getProject(tenant, id);
  expect(project).toMatchObject({ status: 'failed', failure: { code: 'max_billable_seconds_exceeded' }, usage: { state: 'limit_exceeded', billable_seconds: 2_147_483_647, charged_seconds: 0 } });
  expect(await ledger(id)).toEqual(['hold:600', 'release:600']);
});
