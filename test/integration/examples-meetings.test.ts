import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bearer, createTenant } from '../helpers/fixtures';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The sample notes export the README names (examples/meetings.json) imports with the console
// command as written there (npm run console, from the repository root), and examples/notes.sh reads it back through the real API.

const ROOT = path.resolve(__dirname, '../..');
const SAMPLE = 'examples/meetings.json';
const sample = JSON.parse(readFileSync(path.join(ROOT, SAMPLE), 'utf8')) as { id: string; name: string; started_at: number; sync_state?: string }[];
const listed = sample.filter((m) => (m.sync_state ?? 'synced') === 'synced').sort((a, b) => b.started_at - a.started_at);

/** Runs a command from the repository root, as the README's reader does, without blocking the API in this process. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

it('imports examples/meetings.json with the console command the README shows, and notes.sh reads it back', async () => {
  // The dev key's case: a key of the user's personal workspace, which may read that user's meetings.
  const tenant = await createTenant(api.db, { workspaceKind: 'personal' });
  const imported = await run('npm', ['run', '--silent', 'console', '--', 'meetings:import', '--file', SAMPLE, '--owner-email', tenant.user.email]);
  expect({ code: imported.code, stdout: imported.stdout }).toEqual({ code: 0, stdout: expect.stringContaining(`imported ${sample.length} meetings (0 shares)`) });

  const rows = await api.db.selectFrom('meetings').select(['id', 'name', 'sync_state']).where('owner_user_id', '=', tenant.user.id).orderBy('id').execute();
  expect(rows).toEqual([...sample].sort((a, b) => a.id.localeCompare(b.id)).map((m) => ({ id: m.id, name: m.name, sync_state: m.sync_state ?? 'synced' })));
  const api1 = await request(api.baseUrl, 'GET', '/v1/notes/meetings', { headers: bearer(tenant.key) });
  expect(api1.body.data.map((m: any) => m.id)).toEqual(listed.map((m) => m.id));

  // Pages of 2, so the script follows next_offset at least once.
  expect(listed.length).toBeGreaterThan(2);
  const notes = await run('bash', ['examples/notes.sh', '2'], { BASE_URL: api.baseUrl, API_KEY: tenant.key });
  expect({ code: notes.code, stderr: notes.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = notes.stdout.split('\n');
  expect(lines.slice(0, listed.length)).toEqual(listed.map((m) => expect.stringContaining(`  ${m.name}  (${m.id})`)));
  const newest = sample.find((m) => m.id === listed[0]!.id) as any;
  expect(notes.stdout).toContain(`\n# ${newest.name}\n`);
  for (const note of newest.notes) expect(notes.stdout).toContain(`note: ${note.text}`);
});
