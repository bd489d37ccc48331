import { CommanderError } from 'commander';
import { createCliContext, UsageError } from './cli-context';
import { buildProgram } from './program';

// Operator console: `npm run console -- <command> [options]`. Reads the same environment as the
// API and the worker (DATABASE_URL, TEMPORAL_ADDRESS, ...).

/** Exit codes: 0 done, 1 the command failed while running, 2 the command line was refused. */
export async function runConsole(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  const { ctx, close } = createCliContext(print);
  const { program, activeCommand } = buildProgram(ctx);
  try {
    await program.parseAsync(argv.length === 0 ? ['help'] : argv, { from: 'user' });
    return 0;
  } catch (err) {
    // Commander has already printed its message and the command's help.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UsageError) {
      print(`error: ${err.message}\n`);
      const command = activeCommand();
      if (command) print(command.helpInformation().replace(/\n$/, ''));
      return 2;
    }
    print(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await close();
  }
}

if (require.main === module) {
  void runConsole(process.argv.slice(2)).then((code) => process.exit(code));
}
