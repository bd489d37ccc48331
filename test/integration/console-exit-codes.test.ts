import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { runCommand } from '../helpers/run-command';

// The console as an operator's shell runs it: the `dubbing-console` executable (package.json
// "bin") in a child process. Exit 0 with the result on stdout alone; 1 for a refusal while
// running, one line on stderr and no usage; 2 for a command line it cannot take, the error and
// the command's usage on stderr.

const ROOT = path.resolve(__dirname, '..', '..');
const run = (...argv: string[]) => runCommand(process.execPath, ['bin/dubbing-console.js', ...argv], { cwd: ROOT });

it('help: exit 0, on stdout', async () => {
  const help = await run('help');
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('Usage: npm run console -- <command> [options]');
  expect(help.stderr).toBe('');
}, 60_000);

it('a refusal while running: exit 1, one line on stderr, no usage, nothing on stdout', async () => {
  const projectId = randomUUID();
  const refused = await run('languages:retry', projectId, 'es_es', '--no-wait');
  expect(refused).toEqual({ code: 1, stdout: '', stderr: `error: project ${projectId} has no language es_es\n` });
}, 60_000);

it('a command line it cannot take: exit 2, the error and the usage on stderr, nothing on stdout', async () => {
  const unknownOption = await run('workspaces:create', '--name', 'x', '--knd', 'personal');
  expect(unknownOption.code).toBe(2);
  expect(unknownOption.stdout).toBe('');
  expect(unknownOption.stderr).toContain("error: unknown option '--knd'");
  expect(unknownOption.stderr).toContain('Usage: npm run console -- workspaces:create [options]');

  const exclusive = await run('workspaces:create', '--name', 'x', '--kind', 'personal');
  expect(exclusive.code).toBe(2);
  expect(exclusive.stdout).toBe('');
  expect(exclusive.stderr).toContain('--kind personal needs --owner-email');
  expect(exclusive.stderr).toContain('Usage: npm run console -- workspaces:create');
}, 60_000);

it('a configuration it cannot use: exit 1 with one line naming every problem', async () => {
  const refused = await runCommand(process.execPath, ['bin/dubbing-console.js', 'keys:list'], { cwd: ROOT, env: { PORT: 'eighty', LOG_LEVEL: 'loud' } });
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(refused.stderr).toContain('PORT must be an integer');
  expect(refused.stderr).toContain('LOG_LEVEL must be one of');
}, 60_000);
