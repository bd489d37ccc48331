import { CommanderError } from 'commander';
import { createCliContext, UsageError } from './cli-context';
import { buildProgram } from './program';

// Operator console: `dubbing-console <command> [options]` (package.json "bin"), or
// `npm run console -- <command> [options]` in a clone. Reads the same environment as the API and
// the worker (DATABASE_URL, TEMPORAL_ADDRESS, ...).
//
// Streams: what a command prints as its result goes to stdout alone, so it can be piped
// (`reviews:export … > transcript.vtt`); errors and usage go to stderr.

/** Where the console writes: results to `out` (stdout), errors and usage to `err` (stderr). */
export interface ConsoleOutput {
  out(line: string): void;
  err(line: string): void;
}

const STDIO: ConsoleOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Exit codes: 0 done; 1 refused or failed while running (one line on stderr, no usage); 2 the
 * command line was refused (the error and the command's usage on stderr).
 */
export async function runConsole(argv: string[], to: ConsoleOutput | ((line: string) => void) = STDIO): Promise<number> {
  // One function takes both streams, as a terminal shows them (tests that read the whole story).
  const output: ConsoleOutput = typeof to === 'function' ? { out: to, err: to } : to;
  const { ctx, close } = createCliContext(output.out);
  const { program, activeCommand } = buildProgram(ctx, output.err);
  try {
    await program.parseAsync(argv.length === 0 ? ['help'] : argv, { from: 'user' });
    return 0;
  } catch (err) {
    // Commander has already printed its message and the command's help.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UsageError) {
      output.err(`error: ${err.message}\n`);
      const command = activeCommand();
      if (command) output.err(command.helpInformation().replace(/\n$/, ''));
      return 2;
    }
    output.err(`error: ${oneLine(err instanceof Error ? err.message : String(err))}`);
    return 1;
  } finally {
    await close();
  }
}

/** A refusal is one line, whatever its message holds (a configuration error lists several). */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** The process entry (bin/dubbing-console.js, `npm run console`). */
export function main(): void {
  // process.exit: an idle pool or Temporal connection must not keep a finished command alive.
  // Writes to stdout and stderr are synchronous on Linux (files, pipes, terminals), so nothing
  // written before is lost.
  void runConsole(process.argv.slice(2)).then((code) => process.exit(code));
}

if (require.main === module) main();
