import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { ffprobe, makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { STORAGE_DRIVERS, storageEnv } from '../helpers/storage-drivers';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';

// The README's walkthrough, run as a newcomer runs it: examples/dub-a-video.sh in bash, with
// only curl, node, ffmpeg and espeak-ng, against the real API over HTTP, a real worker and the
// real engines, on both storage drivers (`make dev` runs either). If the script stops working,
// so does the README: test/unit/readme-walkthrough.test.ts checks that the README's command
// blocks are this script's.

const SCRIPT = path.resolve(__dirname, '../../examples/dub-a-video.sh');
const TARGETS = ['ca_es', 'es_es'];
const FORMATS = ['mp3', 'wav', 'vtt', 'srt', 'png'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script in bash from `cwd` without blocking this process (the API and worker live here). */
function runBash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(STORAGE_DRIVERS)('examples/dub-a-video.sh on the %s storage driver', (driver) => {
  let api: TestApi;
  let worker: TestWorker;
  let tenant: TestTenant;
  let dir: string;

  beforeAll(async () => {
    dir = makeTempDir(`examples-walkthrough-${driver}`);
    // Small parts on local, so the script's part loop really sends several (it takes 64 KiB); S3
    // takes nothing under 5 MiB, so there the short video is one part.
    const env = driver === 'local' ? { UPLOAD_PART_SIZE_BYTES: String(64 * 1024) } : storageEnv(driver);
    api = await startTestApi(env);
    worker = await startTestWorker(api.db, { taskQueue: api.config.temporal.taskQueue, env });
    tenant = await createTenant(api.db, { credits: 100_000, creditsPerSecond: 10 });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    removeTempDir(dir);
  });

  it('makes a video, uploads it in parts, follows the dub and downloads every file', async () => {
    const out = path.join(dir, 'dubbed');
    // Where the API is and its key: on local from .dev/credentials.json in the working directory,
    // as `make dev` saves them (an empty variable counts as unset); on s3 from the environment.
    let where = { BASE_URL: api.baseUrl, API_KEY: tenant.key };
    if (driver === 'local') {
      mkdirSync(path.join(dir, '.dev'));
      writeFileSync(path.join(dir, '.dev/credentials.json'), JSON.stringify({ base_url: api.baseUrl, api_key: tenant.key }));
      where = { BASE_URL: '', API_KEY: '' };
    }
    const run = await runBash(SCRIPT, dir, { ...where, OUT: out });
    const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect({ code: run.code, said }).toEqual({ code: 0, said });

    const projectId = /^project ([0-9a-f-]{36}): awaiting_upload$/m.exec(run.stdout)?.[1];
    expect(projectId).toBeDefined();
    expect(run.stdout).toContain('upload complete: validating\n');
    expect(run.stdout).toContain('completed 100%: All 2 languages are dubbed; download the files.');

    const project = await api.db.selectFrom('projects').select(['status', 'workspace_id', 'source_file_name']).where('id', '=', projectId!).executeTakeFirstOrThrow();
    expect(project).toEqual({ status: 'completed', workspace_id: tenant.workspace.id, source_file_name: 'rice.mp4' });
    const languages = await api.db.selectFrom('project_languages').select(['locale', 'status']).where('project_id', '=', projectId!).orderBy('locale').execute();
    expect(languages).toEqual(TARGETS.map((locale) => ({ locale, status: 'completed' })));

    // Every part was sent, in order, with the ETag its PUT answered.
    const upload = await api.db.selectFrom('uploads').select(['part_count', 'completed_parts']).where('project_id', '=', projectId!).executeTakeFirstOrThrow();
    if (driver === 'local') expect(upload.part_count).toBeGreaterThan(1);
    expect(upload.completed_parts!.map((p) => p.part_number)).toEqual(Array.from({ length: upload.part_count }, (_, i) => i + 1));
    expect(run.stdout.match(/^part \d+: ETag "[0-9a-f]{32}"$/gm)).toHaveLength(upload.part_count);

    for (const locale of TARGETS) {
      for (const format of FORMATS) {
        const file = path.join(out, `${locale}.${format}`);
        expect(statSync(file).size).toBeGreaterThan(0);
        expect(run.stdout).toContain(`saved ${out}/${locale}.${format}`);
      }
      expect(readFileSync(path.join(out, `${locale}.vtt`), 'utf8')).toMatch(/^WEBVTT/);
      expect(readFileSync(path.join(out, `${locale}.png`)).subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      expect((await ffprobe(path.join(out, `${locale}.mp3`))).durationSeconds).toBeGreaterThan(1);
    }
  }, 300_000);

  it('stops at the first error answer and prints it', async () => {
    const broke = await createTenant(api.db, { credits: 0, creditsPerSecond: 10 });
    const run = await runBash(SCRIPT, dir, { BASE_URL: api.baseUrl, API_KEY: broke.key, OUT: path.join(dir, 'broke') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^insufficient_credits: /m);
    expect(run.stdout).not.toContain('part 1:');
    const projects = await api.db.selectFrom('projects').select('id').where('workspace_id', '=', broke.workspace.id).execute();
    expect(projects).toEqual([]);
  }, 60_000);
});
