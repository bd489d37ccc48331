import { runConsole } from '../../src/cli/console';

/** Runs one console command in-process, as an operator would, and collects what it printed. */
export async function consoleRun(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runConsole(argv, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}
