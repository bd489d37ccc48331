import { randomUUID } from 'node:crypto';
import { consoleRun } from '../helpers/console-run';
import { createTenant } from '../helpers/fixtures';
import { startTestApi, type TestApi } from '../helpers/test-api';

// The console parses strictly: what it does not understand is refused with the command's usage
// and exit 2 before anything touches the database.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const workspacesNamed = async (name: string) => api.db.selectFrom('workspaces').selectAll().where('name', '=', name).execute();
const usersWithEmail = async (email: string) => api.db.selectFrom('users').select('id').where('email', '=', email).execute();

describe('console: workspaces:create', () => {
  it('item 20: refuses an unknown flag with usage and exit 2, writing nothing', async () => {
    const name = `typo ${randomUUID()}`;
    const email = `typo-${randomUUID()}@example.test`;
    const run = await consoleRun('workspaces:create', '--name', name, '--knd', 'personal', '--owner-email', email);
    expect(run.code).toBe(2);
    expect(run.out).toContain("unknown option '--knd'");
    expect(run.out).toContain('Usage: npm run console -- workspaces:create [options]');
    expect(run.out).toContain('--kind <kind>');
    expect(await workspacesNamed(name)).toEqual([]);
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('item 20: refuses a --kind outside team|personal with usage and exit 2, writing nothing', async () => {
    const name = `solo ${randomUUID()}`;
    const run = await consoleRun('workspaces:create', '--name', name, '--kind', 'solo');
    expect(run.code).toBe(2);
    expect(run.out).toContain("argument 'solo' is invalid. Allowed choices are team, personal.");
    expect(run.out).toContain('Usage: npm run console -- workspaces:create');
    expect(await workspacesNamed(name)).toEqual([]);
  });

  it("item 20: refuses the README's bracket syntax pasted literally, writing nothing", async () => {
    const name = `brackets ${randomUUID()}`;
    for (const argv of [
      ['workspaces:create', '--name', name, '[--kind', 'personal', '--owner-email', 'a@b.c]'],
      // Even with a well-formed address the stray words are refused, not ignored.
      ['workspaces:create', '--name', name, '[--kind', 'personal', '--owner-email', 'a@b.co', ']'],
    ]) {
      const run = await consoleRun(...argv);
      expect(run.code).toBe(2);
      expect(run.out).toContain('Usage: npm run console -- workspaces:create');
    }
    expect(await workspacesNamed(name)).toEqual([]);
    expect(await usersWithEmail('a@b.co')).toEqual([]);
  });

  it('item 20: refuses an owner without --kind personal, and personal without an owner', async () => {
    const name = `owner ${randomUUID()}`;
    const email = `owner-${randomUUID()}@example.test`;
    const teamWithOwner = await consoleRun('workspaces:create', '--name', name, '--owner-email', email);
    expect(teamWithOwner.code).toBe(2);
    expect(teamWithOwner.out).toContain('--owner-email applies only to --kind personal');
    const personalAlone = await consoleRun('workspaces:create', '--name', name, '--kind', 'personal');
    expect(personalAlone.code).toBe(2);
    expect(personalAlone.out).toContain('--kind personal needs --owner-email');
    const badRate = await consoleRun('workspaces:create', '--name', name, '--credits-per-second', '1.5');
    expect(badRate.code).toBe(2);
    expect(await workspacesNamed(name)).toEqual([]);
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('still creates team and personal workspaces from well-formed flags', async () => {
    const team = `team ${randomUUID()}`;
    const made = await consoleRun('workspaces:create', '--name', team, '--credits-per-second', '7');
    expect(made.code).toBe(0);
    expect(await workspacesNamed(team)).toEqual([expect.objectContaining({ kind: 'team', owner_user_id: null, credits_per_second: 7 })]);

    const personal = `personal ${randomUUID()}`;
    const email = `owner-${randomUUID()}@example.test`;
    const mine = await consoleRun('workspaces:create', `--name=${personal}`, '--kind', 'personal', '--owner-email', email);
    expect(mine.code).toBe(0);
    expect(mine.out).toMatch(/^created personal workspace [0-9a-f-]{36} "personal /);
    const [owner] = await usersWithEmail(email);
    expect(await workspacesNamed(personal)).toEqual([expect.objectContaining({ kind: 'personal', owner_user_id: owner!.id })]);
  });
});

describe('console: ids and help', () => {
  it("item 20: refuses malformed ids with usage and exit 2 instead of PostgreSQL's error, writing nothing", async () => {
    const { workspace } = await createTenant(api.db);
    const keys = async () => (await api.db.selectFrom('api_keys').select('id').where('workspace_id', '=', workspace.id).execute()).length;
    const before = await keys();
    const refused = [
      ['keys:list', '--workspace', 'not-a-uuid'],
      ['keys:create', '--workspace', `${workspace.id}x`, '--name', 'k', '--permissions', 'all'],
      ['keys:create', '--workspace', workspace.id, '--name', 'k', '--permissions', 'all', '--kind', 'personal', '--user', 'bob'],
      ['keys:revoke', "abc'; drop table api_keys; --"],
      ['credits:grant', '--workspace', 'ws-1', '--credits', '10'],
      ['languages:retry', '1234', 'ca_es'],
      ['meetings:import', '--file', '/dev/null', '--user', 'nobody'],
    ];
    const runs = [];
    for (const argv of refused) runs.push({ argv, ...(await consoleRun(...argv)) });
    expect(runs.map(({ argv, code }) => ({ argv, code }))).toEqual(refused.map((argv) => ({ argv, code: 2 })));
    for (const { argv, out } of runs) {
      expect(out).toContain(`Usage: npm run console -- ${argv[0]}`);
      expect(out).not.toContain('invalid input syntax');
    }
    expect(await keys()).toBe(before);
  });

  it('item 20: refuses unknown flags, bad values and surplus arguments on every command', async () => {
    const { workspace } = await createTenant(api.db);
    const refused = [
      ['keys:create', '--workspace', workspace.id, '--name', 'k', '--permissions', 'all', '--kind', 'robot'],
      ['keys:create', '--workspace', workspace.id, '--name', 'k', '--permision', 'all'],
      ['keys:list', 'extra'],
      ['credits:grant', '--workspace', workspace.id, '--credits', '0'],
      ['credits:grant', '--workspace', workspace.id, '--credits', '10', '--referance', 'x'],
      ['languages:retry', randomUUID(), 'Catalan'],
      ['languages:retry', randomUUID(), 'ca_es', '--nowait'],
      ['workspaces:list', '--all'],
    ];
    const runs = [];
    for (const argv of refused) runs.push({ argv, ...(await consoleRun(...argv)) });
    expect(runs.map(({ argv, code }) => ({ argv, code }))).toEqual(refused.map((argv) => ({ argv, code: 2 })));
    for (const { argv, out } of runs) expect(out).toContain(`Usage: npm run console -- ${argv[0]}`);
    expect(await api.db.selectFrom('api_keys').select('id').where('workspace_id', '=', workspace.id).execute()).toHaveLength(1);
    expect(await api.db.selectFrom('credit_ledger').select('id').where('workspace_id', '=', workspace.id).execute()).toEqual([]);
  });

  it('item 20: help lists every command, and an unknown command is refused with it', async () => {
    const help = await consoleRun('help');
    expect(help.code).toBe(0);
    for (const name of ['workspaces:create', 'workspaces:list', 'keys:create', 'keys:list', 'keys:revoke', 'credits:grant', 'languages:retry', 'meetings:import']) {
      expect(help.out).toContain(name);
    }
    const one = await consoleRun('help', 'languages:retry');
    expect(one.code).toBe(0);
    expect(one.out).toContain('--goodwill');
    expect((await consoleRun('credits:grant', '--help')).code).toBe(0);
    const unknown = await consoleRun('workspace:create');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain("unknown command 'workspace:create'");
  });
});
