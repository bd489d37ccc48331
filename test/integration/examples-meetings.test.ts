import { bearer, createTenant } from '../helpers/fixtures';
import { readRepoFile, REPO_ROOT as ROOT } from '../helpers/readme-blocks';
import { runCommand } from '../helpers/run-command';
import { request, startTestApi, type TestApi } from '../helpers/test-api';

// The sample notes export the README names (examples/meetings.json) imports with the console
// command as written there (npm run console, from the repository root), and examples/notes.sh
// reads it back through the real API.

const SAMPLE = 'examples/meetings.json';
const sample = JSON.parse(readRepoFile(SAMPLE)) as { id: string; name: string; started_at: number; sync_state?: string }[];
const listed = sample.filter((m) => (m.sync_state ?? 'synced') === 'synced').sort((a, b) => b.started_at - a.started_at);

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
  const imported = await runCommand('npm', ['run', '--silent', 'console', '--', 'meetings:import', '--file', SAMPLE, '--owner-email', tenant.user.email], { cwd: ROOT });
  expect({ code: imported.code, stdout: imported.stdout }).toEqual({ code: 0, stdout: expect.stringContaining(`imported ${sample.length} meetings (0 shares)`) });

  const rows = await api.db.selectFrom('meetings').select(['id', 'name', 'sync_state']).where('owner_user_id', '=', tenant.user.id).orderBy('id').execute();
  expect(rows).toEqual([...sample].sort((a, b) => a.id.localeCompare(b.id)).map((m) => ({ id: m.id, name: m.name, sync_state: m.sync_state ?? 'synced' })));
  const api1 = await request(api.baseUrl, 'GET', '/v1/notes/meetings', { headers: bearer(tenant.key) });
  expect(api1.body.data.map((m: any) => m.id)).toEqual(listed.map((m) => m.id));

  // Pages of 2, so the script follows next_offset at least once.
  expect(listed.length).toBeGreaterThan(2);
  const notes = await runCommand('bash', ['examples/notes.sh', '2'], { cwd: ROOT, env: { BASE_URL: api.baseUrl, API_KEY: tenant.key } });
  expect({ code: notes.code, stderr: notes.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = notes.stdout.split('\n');
  expect(lines.slice(0, listed.length)).toEqual(listed.map((m) => expect.stringContaining(`  ${m.name}  (${m.id})`)));
  const newest = sample.find((m) => m.id === listed[0]!.id) as any;
  expect(notes.stdout).toContain(`\n# ${newest.name}\n`);
  for (const note of newest.notes) expect(notes.stdout).toContain(`note: ${note.text}`);
});
