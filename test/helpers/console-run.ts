import { runConsole } from '../../src/cli/console';

/**
 * Runs one console command in-process, as an operator would, and collects what it printed:
 * `stdout` and `stderr` apart, and `out` both interleaved as a terminal shows them.
 */
export async function consoleRun(...argv: string[]): Promise<{ code: number; out: string; stdout: string; stderr: string }> {
  const all: string[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runConsole(argv, {
    out: (line) => (all.push(line), stdout.push(line)),
    err: (line) => (all.push(line), stderr.push(line)),
  });
  return { code, out: all.join('\n'), stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}
