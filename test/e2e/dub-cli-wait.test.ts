import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDubbingClient } from '../../src/client';
import type { UploadState } from '../../src/dub/upload-state';
import { makeBusyVideo } from '../helpers/busy-video';
import { dubEnv, runDub, startDub } from '../helpers/dub-cli';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// `dub create --wait` interrupted after its upload, and run again: it follows the one project it
// created, never a second (and never a second charge). The CLI runs as a child process against
// the real stack; the worker starts only after the interrupt, so the project cannot end first.

const CREATE = 'POST /v1/dubbing/projects';

let dir: string;
let api: TestApi;
let worker: TestWorker | undefined;
let tenant: TestTenant;
const env = () => dubEnv({ apiKey: tenant.key, baseUrl: api.baseUrl });
const readState = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as UploadState;
const projectIds = async () => (await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).orderBy('created_at').execute()).map((p) => p.id);
const ledger = async () =>
  api.db.selectFrom('credit_ledger').select(['kind', 'project_id', 'amount']).where('workspace_id', '=', tenant.workspace.id).where('kind', '!=', 'grant').orderBy('id').execute();

beforeAll(async () => {
  dir = makeTempDir('dub-cli-wait');
  api = await startTestApi();
  tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  if (dir) removeTempDir(dir);
});

describe('dub create --wait, interrupted while waiting', () => {
  let work: string;
  let video: string;
  let statePath: string;
  let projectId: string;

  it('issue 26 item 2: the same command run again follows the project the first run created: one project, one charge', async () => {
    work = path.join(dir, 'interrupted');
    mkdirSync(work);
    video = await makeBusyVideo(work, 'Greeting.mp4', 'Hello everyone, and welcome to the kitchen.');
    statePath = `${video}.dub.json`;
    const out = path.join(work, 'dubbed');
    const args = ['create', video, '--to', 'es_es', '--wait', '--out', out];

    // Ctrl-C once the upload is completed and the first status line of the wait is out.
    const first = startDub(args, { cwd: work, env: env() });
    await waitFor('the first run to be waiting', async () => first.stdout().includes('project: '), 60_000, 20);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    projectId = /Created project ([0-9a-f-]{36})/.exec(first.stdout())?.[1] ?? '';
    expect(projectId).not.toBe('');
    expect(first.stdout()).toContain(`Upload completed; project ${projectId} is`);
    expect(first.stderr()).toContain(`Interrupted. Project ${projectId} goes on without you: follow it again with \`dub wait ${projectId}\` (or run the same command again).`);
    // The state file stays, recording the project and that its upload is done.
    const recorded = readState(statePath);
    expect(recorded.project_id).toBe(projectId);
    expect(recorded.completed_at).toEqual(expect.any(String));
    expect(recorded.request.target_locales).toEqual(['es_es']);
    expect(await ledger()).toEqual([expect.objectContaining({ kind: 'hold', project_id: projectId })]);

    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue });
    const mark = api.requests.length;
    const second = await runDub(args, { cwd: work, env: env() });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Project ${projectId} was already created and uploaded from this file with these options`);
    expect(second.stdout).toContain(`Waiting for project ${projectId}.`);
    expect(second.stdout).toContain(`Project ${projectId} completed.`);
    expect(second.stdout).not.toContain('Created project');
    // Nothing created, nothing uploaded again: the second run only read and downloaded.
    const requests = api.requests.slice(mark);
    expect(requests.filter((r) => r === CREATE)).toEqual([]);
    expect(requests.filter((r) => r.startsWith('PUT /v1/uploads/') || r.endsWith('/upload/complete'))).toEqual([]);
    expect(requests).toContain(`GET /v1/dubbing/projects/${projectId}`);
    for (const format of ['mp3', 'srt']) expect(statSync(path.join(out, `Greeting.es_es.${format}`)).size).toBeGreaterThan(0);

    expect(await projectIds()).toEqual([projectId]);
    const project = await api.db.selectFrom('projects').select(['status', 'usage_state']).where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(project).toEqual({ status: 'completed', usage_state: 'charged' });
    const entries = await ledger();
    expect(entries.filter((e) => e.kind === 'hold')).toEqual([expect.objectContaining({ project_id: projectId })]);
    expect(entries.filter((e) => e.kind === 'capture')).toEqual([expect.objectContaining({ project_id: projectId })]);
    expect(readState(statePath).project_id).toBe(projectId);
  }, 300_000);

  it('issue 26 item 2: dub wait follows a project and creates nothing; other options are refused; --new creates another', async () => {
    expect(projectId).toBeTruthy(); // set by the test above
    const before = await ledger();
    const mark = api.requests.length;
    const again = path.join(work, 'again');
    const waited = await runDub(['wait', projectId, '--out', again], { cwd: work, env: env() });
    expect(waited.stderr).toBe('');
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain(`Project ${projectId} completed.`);
    expect(existsSync(path.join(again, 'Greeting.es_es.mp3'))).toBe(true);
    expect(api.requests.slice(mark).filter((r) => r.startsWith('POST '))).toEqual([]);

    // Other locales for the same file: refused (exit 2), with the ways on; nothing sent.
    await worker?.stop(); // from here on no project may run: --new's stays processing, its credits held
    worker = undefined;
    const refusedMark = api.requests.length;
    const refused = await runDub(['create', video, '--to', 'ca_es'], { cwd: work, env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`This file was already sent as project ${projectId} (${statePath}), made with --to es_es.`);
    expect(refused.stderr).toContain(`dub add-languages ${projectId} --to <locales>`);
    expect(refused.stderr).toContain('pass --new');
    expect(api.requests.slice(refusedMark).filter((r) => r.startsWith('POST '))).toEqual([]);
    expect(await projectIds()).toEqual([projectId]);
    expect(await ledger()).toEqual(before);

    // --new: deliberately another project, recorded in the state file from then on.
    const fresh = await runDub(['create', video, '--to', 'es_es', '--new'], { cwd: work, env: env() });
    expect(fresh.stderr).toBe('');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain(`--new: creating another project; project ${projectId}, recorded in Greeting.mp4.dub.json, is left as it is.`);
    const other = /Created project ([0-9a-f-]{36})/.exec(fresh.stdout)?.[1];
    expect(other).toBeDefined();
    expect(other).not.toBe(projectId);
    expect(fresh.stdout).toContain(`Follow it with: dub wait ${other}`);
    expect(await projectIds()).toEqual([projectId, other]);
    expect((await ledger()).filter((e) => e.kind === 'hold').map((e) => e.project_id)).toEqual([projectId, other]);
    expect(readState(statePath)).toMatchObject({ project_id: other, completed_at: expect.any(String) });
  }, 120_000);
});

it('issue 26 item 2: a create answered but never recorded is replayed with the Idempotency-Key the state file holds: the same project', async () => {
  const work = path.join(dir, 'replayed');
  mkdirSync(work);
  const video = path.join(work, 'clip.mp4');
  writeFileSync(video, randomBytes(4096)); // only its bytes travel: no worker looks at them
  const request = { name: 'clip', source_locale: 'en_us', target_locales: ['es_es'], max_billable_seconds: 1, source: { type: 'upload' as const, file_name: 'clip.mp4', size_bytes: 4096 } };
  // What the CLI writes before it sends the create, and the create the API answered, as if the
  // CLI had died before it could record the answer.
  const key = randomUUID();
  const stat = statSync(video);
  const state: UploadState = {
    version: 1,
    base_url: api.baseUrl,
    project_id: null,
    idempotency_key: key,
    file: { size_bytes: stat.size, mtime_ms: Math.trunc(stat.mtimeMs) },
    request,
    parts: {},
    completed_at: null,
  };
  writeFileSync(`${video}.dub.json`, JSON.stringify(state));
  const created = await createDubbingClient({ baseUrl: api.baseUrl, apiKey: tenant.key }).createProject(request, { idempotencyKey: key });
  const holdsBefore = (await ledger()).filter((e) => e.kind === 'hold').length;

  const run = await runDub(['create', video, '--to', 'es_es', '--max-seconds', '1'], { cwd: work, env: env() });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`Created project ${created.id} (clip).`);
  expect(run.stdout).toContain(`Upload completed; project ${created.id} is`);
  const rows = await api.db.selectFrom('projects').select('id').where('workspace_id', '=', tenant.workspace.id).where('name', '=', 'clip').execute();
  expect(rows.map((r) => r.id)).toEqual([created.id]);
  expect((await ledger()).filter((e) => e.kind === 'hold').length).toBe(holdsBefore);
  expect(readState(`${video}.dub.json`)).toMatchObject({ project_id: created.id, idempotency_key: key, completed_at: expect.any(String) });
}, 60_000);
