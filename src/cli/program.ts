import { Command } from 'commander';
import type { CliContext } from './cli-context';
import { COMMANDS } from './commands';

/**
 * The console's command tree. Commander does the parsing: unknown options, surplus arguments,
 * values outside their choices and malformed ids are refused with the command's help, and
 * `help` / `--help` are generated from the same definitions. Help asked for goes to `ctx.print`
 * (stdout); refusals and the usage shown with them to `printError` (stderr).
 */
export function buildProgram(ctx: CliContext, printError: (line: string) => void = ctx.print): { program: Command; activeCommand(): Command | undefined } {
  let active: Command | undefined;
  const program = new Command('npm run console --')
    .usage('<command> [options]')
    .description('Operator console. Reads the same environment as the API and the worker (DATABASE_URL, TEMPORAL_ADDRESS, ...).')
    // Set before adding commands: subcommands inherit these settings.
    .exitOverride() // throw a CommanderError instead of calling process.exit (tests run in-process)
    .configureOutput({
      writeOut: (str) => ctx.print(str.replace(/\n$/, '')),
      writeErr: (str) => printError(str.replace(/\n$/, '')),
    })
    .showHelpAfterError()
    .showSuggestionAfterError()
    // Remembered so a UsageError raised inside an action can show that command's help.
    .hook('preAction', (_root, command) => {
      active = command;
    });
  for (const register of COMMANDS) register(program, ctx);
  return { program, activeCommand: () => active };
}
