import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { registerCreateCommands } from './commands/create.commands';
import { registerLifecycleCommands } from './commands/lifecycle.commands';
import { registerPaidCommands } from './commands/paid.commands';
import { registerProjectCommands } from './commands/projects.commands';
import { registerSpeakerCommands } from './commands/speakers.commands';
import { registerGlossaryCommands } from './commands/glossary.commands';
import { registerTranscriptCommands } from './commands/transcript.commands';
import { registerVoiceCommands } from './commands/voices.commands';
import type { DubContext } from './dub-context';

/** The package's version: package.json sits two folders up from src/dub and from dist/dub alike. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The `dub` command tree; commander parses, refuses bad input, and writes the help. */
export function buildDubProgram(ctx: DubContext): Command {
  const program = new Command('dub')
    .description('Dub your videos with the dubbing API: quote, upload (resumable), follow, download.')
    .option('--api-key <key>', 'API key (default: $DUB_API_KEY, else .dev/credentials.json)')
    .option('--base-url <url>', 'API URL (default: $DUB_BASE_URL, else .dev/credentials.json, else http://localhost:3000)')
    .version(packageVersion(), '--version', 'print the version of dub')
    .exitOverride()
    .configureOutput({
      writeOut: (str) => ctx.out.line(str.replace(/\n$/, '')),
      writeErr: (str) => ctx.out.error(str.replace(/\n$/, '')),
    })
    .showHelpAfterError()
    .showSuggestionAfterError();
  registerCreateCommands(program, ctx);
  registerProjectCommands(program, ctx);
  registerPaidCommands(program, ctx);
  registerLifecycleCommands(program, ctx);
  registerTranscriptCommands(program, ctx);
  registerVoiceCommands(program, ctx);
  registerSpeakerCommands(program, ctx);
  registerGlossaryCommands(program, ctx);
  return program;
}
