import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { LanguageSegments, Transcript } from '../../client';
import { locale } from '../../shared/argument-parsers';
import { detectFormat } from '../../shared/transcript-format';
import { uuid } from '../arguments';
import type { DubContext } from '../dub-context';
import { table } from '../output';

// The words of a dub (docs/editing.md): `dub transcript` shows the source transcript or replaces
// it with your own file, and `dub segments` shows a language's lines with their status. Both free.

/** Seconds to the millisecond, as the API gives them and a file sets them. */
const clock = (seconds: number) => seconds.toFixed(3);
/** One line per segment: a cue's text may span lines, which a table row cannot. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' / ');

function printTranscript(ctx: DubContext, transcript: Transcript): void {
  if (transcript.segments.length === 0) {
    ctx.out.line(`Project ${transcript.project_id} has no transcript yet.`);
    return;
  }
  ctx.out.line(`Transcript of ${transcript.project_id} (${transcript.source}, ${transcript.segments.length} segments)`);
  const rows = transcript.segments.map((s) => [s.id, clock(s.start_seconds), clock(s.end_seconds), oneLine(s.text)]);
  for (const line of table([['ID', 'START (S)', 'END (S)', 'TEXT'], ...rows])) ctx.out.line(line);
}

function printLanguageSegments(ctx: DubContext, projectId: string, lines: LanguageSegments): void {
  const revision = lines.revision === null ? 'not started yet' : `revision ${lines.revision}`;
  if (lines.segments.length === 0) {
    ctx.out.line(`${lines.locale} of ${projectId} (${revision}) has no lines yet.`);
    return;
  }
  const stale = lines.segments.filter((s) => s.status === 'stale').length;
  ctx.out.line(`${lines.locale} of ${projectId} (${revision}, ${lines.segments.length} lines, ${stale} stale)`);
  const rows = lines.segments.map((s) => [s.id, clock(s.start_seconds), clock(s.end_seconds), s.status, oneLine(s.text)]);
  for (const line of table([['ID', 'START (S)', 'END (S)', 'STATUS', 'TEXT'], ...rows])) ctx.out.line(line);
  // The sync report in total (docs/editing.md#sync-report); each line's is in the API's answer.
  const sync = lines.sync;
  if (sync) {
    ctx.out.line(
      `Sync: ${sync.sped_up_lines} of ${sync.lines} lines faster than ${sync.sped_up_tempo}× (fastest ${sync.max_tempo}×), ` +
        `latest start ${clock(sync.max_shift_seconds)} s after its source, ${sync.overlapping_lines} ran into the next line.`,
    );
  }
}

export function registerTranscriptCommands(program: Command, ctx: DubContext): void {
  program
    .command('transcript')
    .description(
      "Shows the source transcript every language is made from; with --set, replaces it with your own file (free): before the upload, or once the project has ended (its languages' lines then go stale).",
    )
    .argument('<project-id>', 'the project id', uuid)
    .option('--set <file>', 'your transcript: a .vtt, .srt or .json file')
    .action(async (projectId: string, options: { set?: string }) => {
      const client = ctx.client();
      if (!options.set) {
        printTranscript(ctx, await client.getTranscript(projectId));
        return;
      }
      const file = path.resolve(ctx.cwd, options.set);
      const content = await readFile(file, 'utf8');
      const format = detectFormat(file, content);
      const transcript = await client.replaceTranscript(projectId, { format, content });
      ctx.out.line(`Replaced the transcript with ${path.basename(file)} (${format}).`);
      printTranscript(ctx, transcript);
    });

  program
    .command('segments')
    .description("Shows a language's lines: each one's words, timing and status (current, stale: translated again at the next regeneration, edited: yours).")
    .argument('<project-id>', 'the project id', uuid)
    .requiredOption('--locale <locale>', 'the target language, e.g. es_es', locale)
    .action(async (projectId: string, options: { locale: string }) => {
      printLanguageSegments(ctx, projectId, await ctx.client().listLanguageSegments(projectId, options.locale));
    });
}
