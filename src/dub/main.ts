import { CommanderError } from 'commander';
import { createDubbingClient, DubbingApiError, type DubbingClient } from '../client';
import { loadDubCliEnv } from './dub-env';
import { MissingCredentialsError, resolveCredentials, type Credentials } from './credentials';
import { DubbingFailedError, UsageError, type DubContext } from './dub-context';
import { processOutput, type Output } from './output';
import { buildDubProgram } from './program';

// `dub`, the command line for the person with a video (bin/dub.js runs this file). Exit codes:
// 0 done; 1 failed (the API's error message and code on stderr); 2 the command line or the
// credentials were refused; 3 the dubbing ended with a language (or the project) failed;
// 130 interrupted (an upload then resumes when the same command runs again; a wait, with
// `dub wait <id>` or the same command).

export const EXIT = { ok: 0, failed: 1, usage: 2, dubbingFailed: 3, interrupted: 130 } as const;

export function describeError(err: unknown, baseUrl: string | undefined): string {
  if (err instanceof DubbingApiError) {
    const details = [err.code, `HTTP ${err.status}`, err.param ? `param ${err.param}` : null, err.requestId ? `request ${err.requestId}` : null].filter(Boolean).join(', ');
    return `error: ${err.message} (${details})`;
  }
  if (err instanceof TypeError && err.message === 'fetch failed') {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `error: could not reach the API at ${baseUrl ?? '?'} (${cause?.code ?? cause?.message ?? 'network error'}). Is it running?`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}

/** What a Ctrl-C says until a command knows better (see DubContext.interruptHint). */
export const DEFAULT_INTERRUPT_HINT = 'Run the same command again to resume an upload.';

export async function runDub(argv: string[], options: { out?: Output; env?: Record<string, string | undefined>; cwd?: string; onInterruptHint?: (text: string) => void } = {}): Promise<number> {
  const out = options.out ?? processOutput();
  const env = loadDubCliEnv(options.env);
  let credentials: Credentials | undefined;
  let client: DubbingClient | undefined;
  const ctx: DubContext = {
    out,
    cwd: options.cwd ?? process.cwd(),
    credentials: () => (credentials ??= resolveCredentials(program.opts<{ apiKey?: string; baseUrl?: string }>(), env, ctx.cwd)),
    client: () => (client ??= createDubbingClient({ baseUrl: ctx.credentials().baseUrl, apiKey: ctx.credentials().apiKey })),
    interruptHint: (text) => options.onInterruptHint?.(text),
  };
  const program = buildDubProgram(ctx);
  try {
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    out.error(describeError(err, credentials?.baseUrl));
    if (err instanceof UsageError || err instanceof MissingCredentialsError) return EXIT.usage;
    if (err instanceof DubbingFailedError) return EXIT.dubbingFailed;
    return EXIT.failed;
  }
}

/** The process entry (bin/dub.js): exit code on the way out, and a clean Ctrl-C. */
export function main(): void {
  let hint = DEFAULT_INTERRUPT_HINT;
  process.once('SIGINT', () => {
    // The bars hide the cursor; give it back. The upload's state file is already on disk.
    process.stdout.write('\x1b[?25h\n');
    process.stderr.write(`Interrupted. ${hint}\n`);
    process.exit(EXIT.interrupted);
  });
  void runDub(process.argv.slice(2), {
    onInterruptHint: (text) => {
      hint = text;
    },
  }).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) main();
