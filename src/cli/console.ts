import type { Client } from '@temporalio/client';
import { loadConfig } from '../config';
import { createDb, type Db } from '../db/create-db';
import { databaseUrl } from '../db/database-url';
import { createTemporalClient } from '../temporal/connection';
import { parseArgv, UsageError, type CliContext } from './cli-context';
import { COMMANDS } from './commands';

// Operator console: `npm run console -- <command> [flags]`. Reads the same environment as the
// API and the worker (DATABASE_URL, TEMPORAL_ADDRESS, ...).

function help(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `usage: npm run console -- <command> [flags]\n\ncommands:\n${lines.join('\n')}`;
}

export async function runConsole(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    print(name && name !== 'help' ? `unknown command "${name}"\n\n${help()}` : help());
    return name && name !== 'help' ? 2 : 0;
  }
  const config = loadConfig();
  let db: Db | undefined;
  let temporal: Client | undefined;
  const { args, flags } = parseArgv(rest);
  const ctx: CliContext = {
    config,
    args,
    flags,
    print,
    db: () => (db ??= createDb({ url: databaseUrl(config), poolMax: 2, applicationName: 'dubbing-console' })),
    temporal: () => (temporal ??= createTemporalClient(config)),
  };
  try {
    await command.run(ctx);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      print(`${err.message}\nusage: ${command.usage}`);
      return 2;
    }
    print(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db?.destroy();
    await temporal?.connection.close();
  }
}

if (require.main === module) {
  void runConsole(process.argv.slice(2)).then((code) => process.exit(code));
}
