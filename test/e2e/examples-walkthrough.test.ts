import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTenant, type TestTenant } from '../helpers/fixtures';
import { ffprobe, makeTempDir, removeTempDir } from '../helpers/media-fixtures';
import { STORAGE_DRIVERS, storageEnv } from '../helpers/storage-drivers';
import { markdownSection, readRepoFile, REPO_ROOT, shellBlocks } from '../helpers/readme-blocks';
import { runCommand } from '../helpers/run-command';
import { startTestApi, type TestApi } from '../helpers/test-api';
import { startTestWorker, type TestWorker } from '../helpers/test-worker';
import { waitFor } from '../helpers/wait-for';

// The README's walkthrough, run as a newcomer runs it: examples/dub-a-video.sh in bash, with
// only curl, node, ffmpeg and Festival's text2wave, against the real API over HTTP, a real worker
// and the real engines, on both storage drivers (`make dev` runs either). If the script stops
// working, so does the README: test/unit/docs/readme-walkthrough.test.ts checks that the README's
// command blocks are this script's.

const SCRIPT = path.join(REPO_ROOT, 'examples/dub-a-video.sh');
const TARGETS = ['ca_es', 'es_es'];
const FORMATS = ['mp4', 'mp3', 'wav', 'vtt', 'srt', 'png'];
/** The words the script's made-up video says, turn by turn (`say N VOICE 'words'`). */
const SPOKEN = [...readRepoFile('examples/dub-a-video.sh').matchAll(/^ {2}say \d+ \$\w+ '(.+)'$/gm)].map((m) => m[1]!);
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);

describe.each(STORAGE_DRIVERS)('examples/dub-a-video.sh on the %s storage driver', (driver) => {
  let api: TestApi;
  let worker: TestWorker;
  let tenant: TestTenant;
  let dir: string;
  /** The project the script dubbed, for the README's later sections. */
  let dubbedId: string | undefined;

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
    const run = await runCommand('bash', [SCRIPT], { cwd: dir, env: { ...where, OUT: out } });
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
      // The stems are saved beside the mix, not over it (docs/audio.md#stems).
      for (const stem of ['dialog-stem', 'background-stem']) expect(statSync(path.join(out, `${locale}.${stem}.wav`)).size).toBe(statSync(path.join(out, `${locale}.wav`)).size);
      expect(readFileSync(path.join(out, `${locale}.vtt`), 'utf8')).toMatch(/^WEBVTT/);
      expect(readFileSync(path.join(out, `${locale}.png`)).subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      expect((await ffprobe(path.join(out, `${locale}.mp3`))).durationSeconds).toBeGreaterThan(1);
    }
    // The made-up video is recognized word for word (examples/README.md#the-made-up-video), so a
    // newcomer's first dub says what was said. Changed words must be measured again.
    expect(SPOKEN).toHaveLength(4);
    const heard = await api.db.selectFrom('source_segments').select('text').where('project_id', '=', projectId!).orderBy('position').execute();
    expect(words(heard.map((s) => s.text).join(' '))).toEqual(words(SPOKEN.join(' ')));

    // Its two voices are two speakers, listed with their dub voices, once the API tells speakers
    // apart; before that, GET …/speakers answers 404 and the script lists nothing.
    const document = (await (await fetch(`${api.baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const listed = run.stdout.match(/^.+: \d+ segments, [\d.]+ s; .+$/gm) ?? [];
    expect(listed).toHaveLength('/v1/dubbing/projects/{project_id}/speakers' in document.paths ? 2 : 0);
    dubbedId = projectId;
  }, 300_000);

  it('stops at the first error answer and prints it', async () => {
    const broke = await createTenant(api.db, { credits: 0, creditsPerSecond: 10 });
    const run = await runCommand('bash', [SCRIPT], { cwd: dir, env: { BASE_URL: api.baseUrl, API_KEY: broke.key, OUT: path.join(dir, 'broke') } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^insufficient_credits: /m);
    expect(run.stdout).not.toContain('part 1:');
    const projects = await api.db.selectFrom('projects').select('id').where('workspace_id', '=', broke.workspace.id).execute();
    expect(projects).toEqual([]);
  }, 60_000);

  it("then the README's next section, pasted as it is, adds a language and requests a transcript review", async () => {
    expect(dubbedId).toBeDefined();
    const readme = readRepoFile('README.md');
    const env = { BASE_URL: api.baseUrl, API_KEY: tenant.key, ID: dubbedId! };
    for (const heading of ['### Adding languages later, human review']) {
      const blocks = shellBlocks(markdownSection(readme, heading));
      expect(blocks).toHaveLength(1);
      const run = await runCommand('bash', ['-euo', 'pipefail', '-c', blocks[0]!], { cwd: dir, env });
      expect({ heading, code: run.code, stderr: run.stderr }).toEqual({ heading, code: 0, stderr: '' });
      // Quotes, then the paid calls: all answered, none an error.
      expect(run.stdout).not.toContain('"error"');
      expect(run.stdout).toContain('"preview_only":true');
      expect(run.stdout).toContain('"preview_only":false');
    }

    const additions = await api.db.selectFrom('language_additions').select('locales').where('project_id', '=', dubbedId!).execute();
    expect(additions).toEqual([{ locales: ['pt_pt'] }]);
    const review = await api.db.selectFrom('transcript_reviews').select('status').where('project_id', '=', dubbedId!).executeTakeFirstOrThrow();
    expect(review.status).toBe('requested');
    // The added language is dubbed like the others (and the worker is not stopped mid-dub).
    const added = await waitFor(
      'pt_pt dubbed',
      async () => {
        const row = await api.db.selectFrom('project_languages').select('status').where('project_id', '=', dubbedId!).where('locale', '=', 'pt_pt').executeTakeFirst();
        return row && ['completed', 'failed'].includes(row.status) ? row : undefined;
      },
      120_000,
      500,
    );
    expect(added.status).toBe('completed');
  }, 180_000);
});
