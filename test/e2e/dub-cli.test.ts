import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { UploadState } from '../../src/dub/upload-state';
import { dubEnv, runDub, startDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeBusyVideo } from '../helpers/busy-video';
import { ffprobe, makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { STORAGE_DRIVERS, storageEnv, UPLOAD_SETUPS, type StorageDriver } from '../helpers/storage-drivers';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// The `dub` CLI end to end, as a child process, against the real stack: the Koa app over HTTP,
// PostgreSQL, the Temporal dev server, a real worker and the real engines.

const TARGETS = ['es_es', 'ca_es'];
const FILES = ['mp3', 'wav', 'srt', 'vtt', 'png', 'mp4'];

let dir: string;
beforeAll(() => {
  dir = makeTempDir('dub-cli');
});
afterAll(() => {
  if (dir) removeTempDir(dir);
});

/** The real API on `driver`, a workspace with credits and, when asked, a real worker. */
function stack(driver: StorageDriver, withWorker: boolean) {
  const setup = {
    api: undefined as unknown as TestApi,
    worker: undefined as TestWorker | undefined,
    tenant: undefined as unknown as TestTenant,
    env: () => dubEnv({ apiKey: setup.tenant.key, baseUrl: setup.api.baseUrl }),
  };
  beforeAll(async () => {
    const env = { ...storageEnv(driver), UPLOAD_PART_SIZE_BYTES: String(UPLOAD_SETUPS[driver].partSize) };
    setup.api = await startTestApi(env);
    if (withWorker) setup.worker = await startTestWorker(setup.api.db, { taskQueue: setup.api.config.temporal.taskQueue, env });
    setup.tenant = await createTenant(setup.api.db, { credits: 100_000, creditsPerSecond: 10 });
  }, 120_000);
  afterAll(async () => {
    await setup.worker?.stop();
    await setup.api?.close();
  });
  return setup;
}

describe.each(STORAGE_DRIVERS)('dub create --wait on the %s storage driver', (driver) => {
  const { partSize, videoMiB } = UPLOAD_SETUPS[driver];
  const setup = stack(driver, true);

  it('dubs a real video into two locales and saves every file of both', async () => {
    const { api, tenant, env } = setup;
    const work = path.join(dir, `journey-${driver}`);
    mkdirSync(work);
    const video = await makeBusyVideo(work, 'Cooking rice.mp4', 'Hello everyone and welcome to the kitchen. Today we cook rice with fresh vegetables.', videoMiB);
    expect(statSync(video).size).toBeGreaterThan(2 * partSize); // several parts, sent in parallel
    const out = path.join(work, 'dubbed');

    const quote = await runDub(['quote', video, '--to', TARGETS.join(',')], { cwd: work, env: env() });
    expect(quote.stderr).toBe('');
    expect(quote.code).toBe(0);
    const billable = Math.ceil((await ffprobe(video)).durationSeconds);
    expect(quote.stdout).toContain(`${billable} s × 2 = ${billable * 2} s`);
    expect(quote.stdout).toContain(`Credits    ${billable * 2 * 10} (10 per second)`);
    expect(quote.stdout).toMatch(/Covered\s+yes/);

    const run = await runDub(['create', video, '--to', TARGETS.join(','), '--wait', '--out', out], { cwd: work, env: env() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const projectId = /Created project ([0-9a-f-]{36})/.exec(run.stdout)?.[1];
    expect(projectId).toBeDefined();
    // Not a terminal: plain lines, one per change, ending with the project's status.
    expect(run.stdout).toContain('Upload completed');
    expect(run.stdout).toMatch(/es_es: completed 100%/);
    expect(run.stdout).toMatch(/ca_es: completed 100%/);
    expect(run.stdout).toContain(`Project ${projectId} completed.`);

    for (const locale of TARGETS) {
      for (const format of FILES) {
        const file = path.join(out, `Cooking rice.${locale}.${format}`);
        expect(existsSync(file)).toBe(true);
        expect(statSync(file).size).toBeGreaterThan(0);
        expect(run.stdout).toContain(`Saved ${file}`);
      }
      expect(readFileSync(path.join(out, `Cooking rice.${locale}.vtt`), 'utf8')).toMatch(/^WEBVTT/);
      const mp3 = await ffprobe(path.join(out, `Cooking rice.${locale}.mp3`));
      expect(mp3.formatName).toBe('mp3');
      expect(mp3.durationSeconds).toBeGreaterThan(1);
    }
    // The state file stays once the upload is completed, recording the project: the same command
    // again follows it rather than creating another (docs/cli.md).
    expect(JSON.parse(readFileSync(`${video}.dub.json`, 'utf8'))).toMatchObject({ project_id: projectId, completed_at: expect.any(String), parts: {} });

    const project = await api.db.selectFrom('projects').select(['status', 'usage_state', 'billable_seconds', 'workspace_id']).where('id', '=', projectId!).executeTakeFirstOrThrow();
    expect(project).toEqual({ status: 'completed', usage_state: 'charged', billable_seconds: billable, workspace_id: tenant.workspace.id });
    const languages = await api.db.selectFrom('project_languages').select(['locale', 'status']).where('project_id', '=', projectId!).orderBy('locale').execute();
    expect(languages).toEqual([
      { locale: 'ca_es', status: 'completed' },
      { locale: 'es_es', status: 'completed' },
    ]);

    const status = await runDub(['status', projectId!], { cwd: work, env: env() });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/es_es\s+completed\s+100%\s+audio\/mp3/);
    const list = await runDub(['list', '--limit', '5'], { cwd: work, env: env() });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(projectId);
    // The paid extras quote first; without --yes (and no terminal to ask) nothing is charged.
    const charged = (await api.db.selectFrom('credit_ledger').select('id').where('project_id', '=', projectId!).execute()).length;
    const addition = await runDub(['add-languages', projectId!, '--to', 'es_es,pt_pt'], { cwd: work, env: env() });
    expect(addition.code).toBe(0);
    expect(addition.stdout).toMatch(/New\s+pt_pt\n/);
    expect(addition.stdout).toMatch(/Already there\s+es_es\n/);
    expect(addition.stdout).toMatch(new RegExp(`Billable\\s+${billable} s\\n`));
    expect(addition.stdout).toContain('Nothing charged. Run it again with --yes to accept this quote.');
    const review = await runDub(['review', projectId!], { cwd: work, env: env() });
    expect(review.code).toBe(0);
    expect(review.stdout).toMatch(new RegExp(`Billable\\s+${Math.ceil(billable / 60) * 60} s`));
    expect(review.stdout).toContain('Nothing charged.');
    expect((await api.db.selectFrom('credit_ledger').select('id').where('project_id', '=', projectId!).execute()).length).toBe(charged);
    const usage = await runDub(['usage'], { cwd: work, env: env() });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toMatch(new RegExp(`available\\s+${100_000 - billable * 2 * 10}\\s+${(100_000 - billable * 2 * 10) / 10}\\n`));

    // On s3 the parts went straight to the store's presigned URLs: none reached the API.
    const partRequests = api.requests.filter((r) => r.startsWith('PUT /v1/uploads/'));
    if (driver === 's3') expect(partRequests).toEqual([]);
    else expect(partRequests.length).toBeGreaterThanOrEqual(3);
  }, 420_000);
});

describe('an interrupted upload, and errors (local driver, where the API sees every part)', () => {
  const PART_SIZE = UPLOAD_SETUPS.local.partSize;
  const setup = stack('local', false);
  const partPuts = (from: number) =>
    setup.api.requests
      .slice(from)
      .filter((r) => r.startsWith('PUT /v1/uploads/'))
      .map((r) => Number(r.split('/').pop()));

  it('resumes an interrupted upload without sending the finished parts again', async () => {
    const { api, tenant, env } = setup;
    const work = path.join(dir, 'resume');
    mkdirSync(work);
    // The bytes only travel here (--max-seconds spares the local probe; no worker looks at them).
    const video = path.join(work, 'long take.mp4');
    writeFileSync(video, randomBytes(300 * PART_SIZE + 1234));
    const statePath = `${video}.dub.json`;
    const args = ['create', video, '--to', TARGETS.join(','), '--max-seconds', '1', '--concurrency', '1'];

    const readState = () => (existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as UploadState) : undefined);
    const finishedParts = () => Object.keys(readState()?.parts ?? {}).map(Number);
    /** Starts the upload and interrupts it with `signal` once the state file lists more than `after` finished parts. */
    const interruptAfter = async (after: number, signal: NodeJS.Signals) => {
      const run = startDub(args, { cwd: work, env: env() });
      await waitFor(`more than ${after} finished parts in the state file`, async () => finishedParts().length > after, 60_000, 5);
      run.child.kill(signal);
      return { code: await run.exited, stderr: run.stderr(), stdout: run.stdout() };
    };

    // Ctrl-C: the CLI says how to go on and exits 130.
    const first = await interruptAfter(0, 'SIGINT');
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('Interrupted. Run the same command again to resume an upload.');
    const projectId = readState()!.project_id;
    const finishedFirst = finishedParts();
    expect(finishedFirst.length).toBeLessThan(301); // cut off part way

    // A crash: nothing runs on the way out; the state file is whole all the same.
    const secondMark = api.requests.length;
    const second = await interruptAfter(finishedFirst.length, 'SIGKILL');
    expect(second.code).toBeNull();
    expect(second.stdout).toContain(`Resuming the upload of project ${projectId}`);
    for (const n of finishedFirst) expect(partPuts(secondMark)).not.toContain(n);
    const finished = finishedParts();
    expect(readState()!.project_id).toBe(projectId);
    expect(finished.length).toBeGreaterThan(finishedFirst.length);
    expect(finished.length).toBeLessThan(301);

    // What the storage holds: every part the state lists, and maybe one that landed just before
    // the kill, unrecorded; the API's transfer block tells the rerun about that one too.
    const stored = async () =>
      (
        await api.db.selectFrom('upload_parts').innerJoin('uploads', 'uploads.id', 'upload_parts.upload_id').select('upload_parts.part_number').where('uploads.project_id', '=', projectId!).execute()
      ).map((r) => r.part_number);
    // A PUT whose body was wholly sent before the kill may still be landing: read once it settled.
    let storedBefore = await stored();
    for (let settled = false; !settled;) {
      await new Promise((r) => setTimeout(r, 500));
      const again = await stored();
      settled = again.length === storedBefore.length;
      storedBefore = again;
    }
    for (const n of finished) expect(storedBefore).toContain(n);

    const mark = api.requests.length;
    const last = await runDub(args, { cwd: work, env: env() });
    expect(last.stderr).toBe('');
    expect(last.code).toBe(0);
    expect(last.stdout).toContain(`Resuming the upload of project ${projectId}`);
    const resent = partPuts(mark);
    for (const n of storedBefore) expect(resent).not.toContain(n);
    expect(new Set([...resent, ...storedBefore]).size).toBe(301);
    // The same project, never a second create: no POST of a project in the rerun.
    expect(api.requests.slice(secondMark).filter((r) => r === 'POST /v1/dubbing/projects')).toEqual([]);
    expect(api.requests.slice(mark)).toContain(`POST /v1/dubbing/projects/${projectId}/upload/complete`);

    const upload = await api.db.selectFrom('uploads').select(['completed_at', 'part_count', 'completed_parts']).where('project_id', '=', projectId!).executeTakeFirstOrThrow();
    expect(upload.part_count).toBe(301);
    expect(upload.completed_at).toBeInstanceOf(Date);
    expect((upload.completed_parts as unknown[]).length).toBe(301);
    const projects = await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).where('name', '=', 'long take').execute();
    expect(projects.map((p) => p.id)).toEqual([projectId]);
    expect(readState()).toMatchObject({ project_id: projectId, completed_at: expect.any(String) });
  }, 180_000);

  it('starts a new upload when the file changed, and refuses other locales while one is pending', async () => {
    const { api, env } = setup;
    const work = path.join(dir, 'changed');
    mkdirSync(work);
    const video = path.join(work, 'draft.mp4');
    writeFileSync(video, randomBytes(150 * PART_SIZE));
    const statePath = `${video}.dub.json`;
    const args = ['create', video, '--to', TARGETS.join(','), '--max-seconds', '1', '--concurrency', '1'];
    const first = startDub(args, { cwd: work, env: env() });
    const state = await waitFor(
      'a finished part',
      async () => {
        const s = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as UploadState) : undefined;
        return s && Object.keys(s.parts).length > 0 ? s : undefined;
      },
      60_000,
      5,
    );
    first.child.kill('SIGKILL');
    await first.exited;

    const other = await runDub(['create', video, '--to', 'es_es', '--max-seconds', '1'], { cwd: work, env: env() });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`An interrupted upload of this file to ${TARGETS.join(',')} is pending`);

    writeFileSync(video, randomBytes(150 * PART_SIZE + 7)); // a new version of the file
    const mark = api.requests.length;
    const again = await runDub(args, { cwd: work, env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('draft.mp4.dub.json is for another version of this file or another API; starting a new upload.');
    const created = /Created project ([0-9a-f-]{36})/.exec(again.stdout)?.[1];
    expect(created).toBeDefined();
    expect(created).not.toBe(state.project_id);
    expect(api.requests.slice(mark)).toContain('POST /v1/dubbing/projects');
    const sizes = await api.db.selectFrom('uploads').select(['project_id', 'size_bytes', 'completed_at']).where('project_id', 'in', [state.project_id!, created!]).execute();
    expect(sizes.find((u) => u.project_id === created)).toMatchObject({ size_bytes: 150 * PART_SIZE + 7, completed_at: expect.any(Date) });
    expect(sizes.find((u) => u.project_id === state.project_id)).toMatchObject({ size_bytes: 150 * PART_SIZE, completed_at: null });
  }, 120_000);

  it('creates with a background mode and chosen voices, and refuses a mode that is not one', async () => {
    const { api, tenant, env } = setup;
    const work = path.join(dir, 'options');
    mkdirSync(work);
    const video = path.join(work, 'quiet.mp4');
    writeFileSync(video, randomBytes(3 * PART_SIZE));
    const refused = await runDub(['create', video, '--to', 'es_es', '--max-seconds', '1', '--background', 'loud'], { cwd: work, env: env() });
    expect(refused.code).toBe(2); // a usage error
    expect(refused.stderr).toContain("option '--background <mode>' argument 'loud' is invalid. Allowed choices are duck, keep, drop.");
    const badVoices = await runDub(['create', video, '--to', 'es_es', '--max-seconds', '1', '--voices', 'es_es'], { cwd: work, env: env() });
    expect(badVoices.code).toBe(2);
    expect(badVoices.stderr).toContain('Expected <locale>=<voice id>');
    expect(await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).where('name', '=', 'quiet').execute()).toEqual([]);

    const run = await runDub(['create', video, '--to', 'es_es,ca_es', '--max-seconds', '1', '--background', 'drop', '--voices', 'es_es=espeak:es+f3'], { cwd: work, env: env() });
    expect(run.code).toBe(0);
    // The voices chosen at create, by locale; the languages take them once the source is validated.
    const project = await api.db.selectFrom('projects').select(['background', 'voices']).where('workspace_id', '=', tenant.workspace.id).where('name', '=', 'quiet').executeTakeFirstOrThrow();
    expect(project).toEqual({ background: 'drop', voices: expect.objectContaining({ es_es: 'espeak:es+f3' }) });
  });

  it('exits non-zero with the API error message', async () => {
    const { api, env } = setup;
    const run = await runDub(['status', '00000000-0000-4000-8000-000000000000'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: No such project\. \(not_found, HTTP 404, param project_id, request [^)]+\)\n$/);
    const refused = await runDub(['usage'], { cwd: dir, env: dubEnv({ apiKey: 'dk_nope_nope', baseUrl: api.baseUrl }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unauthenticated, HTTP 401');

    // A ceiling the credits cannot hold: the API's 402, and no state left to resume.
    const video = path.join(dir, 'too long.mp4');
    writeFileSync(video, randomBytes(1000));
    const poor = await runDub(['create', video, '--to', TARGETS.join(','), '--max-seconds', '86400'], { cwd: dir, env: env() });
    expect(poor.code).toBe(1);
    expect(poor.stderr).toMatch(/^error: This project needs 1728000 credits held .*\(insufficient_credits, HTTP 402, request [^)]+\)\n$/);
    expect(existsSync(`${video}.dub.json`)).toBe(false);
  });
});
