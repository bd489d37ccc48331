import { statSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { CreateProjectRequest } from '../../client';
import { glossaryId, localeList, positiveInteger, rangeArgument, voiceList } from '../arguments';
import { rangeSeconds, type SourceRange } from '../../shared/source-range';
import { BACKGROUND_MODES, type BackgroundMode } from '../../shared/background-mode';
import { CAPTION_PRESET_NAMES, type CaptionPreset } from '../../captions/timed-text-rules';
import { LOUDNESS_PRESET_NAMES, type LoudnessPreset } from '../../audio/loudness-presets';
import { UsageError, type DubContext } from '../dub-context';
import { followProject } from '../follow-project';
import { formatSeconds, table } from '../output';
import { planSource, type SourcePlan } from '../source-plan';
import { uploadVideo } from '../upload-source';

// `dub quote` and `dub create`: what a video will cost, and dubbing it.

interface SourceOptions {
  to: string[];
  from: string;
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    throw new UsageError(`No such file: ${file}`);
  }
}

function ceilingFor(plan: SourcePlan, maxSeconds: number | undefined, range: SourceRange | undefined): number {
  if (maxSeconds !== undefined) return maxSeconds;
  // A preview is charged for its range only (docs/previews.md).
  if (range) return Math.max(1, Math.ceil(rangeSeconds(range)));
  if (plan.durationSeconds === null) {
    throw new UsageError(
      plan.kind === 'youtube'
        ? "The video's duration is unknown here (its channel is not connected to this workspace): pass --max-seconds, the most you will pay for per language."
        : 'The duration is unknown: pass --max-seconds.',
    );
  }
  return Math.ceil(plan.durationSeconds);
}

/** A range past the end of a video whose duration is known here is refused before anything is sent. */
function checkRangeWithin(plan: SourcePlan, range: SourceRange | undefined): void {
  if (range && plan.durationSeconds !== null && range.end_seconds > plan.durationSeconds + 0.05) {
    throw new UsageError(`--range ends at ${range.end_seconds} s, past the end of the video (${plan.durationSeconds.toFixed(1)} s).`);
  }
}

export function registerCreateCommands(program: Command, ctx: DubContext): void {
  program
    .command('quote')
    .description('What dubbing a video costs: its duration, the billable seconds and credits, and whether your credits cover it. Charges nothing.')
    .argument('<video>', 'a video file, or a YouTube URL of a connected channel')
    .requiredOption('--to <locales>', 'target locales, comma-separated, e.g. es_es,ca_es', localeList)
    .option('--range <start-end>', 'quote a preview of this stretch only (as dub create --range)', rangeArgument)
    .action(async (source: string, options: { to: string[]; range?: SourceRange }) => {
      const plan = await planSource(ctx, source, true);
      // A preview's price is its range's, whatever the video's duration.
      if (plan.durationSeconds === null && !options.range)
        throw new UsageError("The video's duration is unknown here (its channel is not connected to this workspace), so there is nothing exact to quote.");
      checkRangeWithin(plan, options.range);
      const usage = await ctx.client().getUsage();
      // A preview is charged for its range only (docs/previews.md).
      const billablePerLanguage = ceilingFor(plan, undefined, options.range);
      const billable = billablePerLanguage * options.to.length;
      const credits = billable * usage.credits_per_second;
      const covered = usage.credits.available >= credits;
      for (const line of table([
        [
          'Source',
          `${plan.kind === 'upload' ? path.basename(plan.file) : plan.url}${plan.durationSeconds === null ? '' : `, ${plan.durationSeconds.toFixed(1)} s (${formatSeconds(plan.durationSeconds)})`}`,
        ],
        ...(options.range ? [['Preview', `${options.range.start_seconds}–${options.range.end_seconds} s`]] : []),
        ['Languages', options.to.join(', ')],
        ['Billable', `${billablePerLanguage} s × ${options.to.length} = ${billable} s`],
        ['Credits', `${credits} (${usage.credits_per_second} per second)`],
        ['Available', `${usage.credits.available} credits`],
        ['Covered', covered ? 'yes' : `no: ${credits - usage.credits.available} credits short`],
      ]))
        ctx.out.line(line);
    });

  program
    .command('create')
    .description('Dubs a video: uploads it (resuming an interrupted upload of the same file), or takes a YouTube URL; with --wait, follows the dubbing and downloads every file.')
    .argument('<video>', 'a video file, or a YouTube URL')
    .requiredOption('--to <locales>', 'target locales, comma-separated, e.g. es_es,ca_es', localeList)
    .option('--from <locale>', "the video's spoken language", 'en_us')
    .option('--name <name>', 'project name (default: the file name, or the video title)')
    .option('--max-seconds <n>', 'spend ceiling: the most billable seconds per language (default: the duration, rounded up)', positiveInteger)
    .option('--concurrency <n>', 'parts uploaded at once', positiveInteger, 4)
    .option('--wait', 'follow the dubbing until it ends, then download every file')
    .option('--out <dir>', 'where --wait saves the files', '.')
    .option('--burn-captions', "burn each language's captions into its dubbed video (re-encoded to H.264; docs/video.md)")
    .addOption(
      new Option(
        '--background <mode>',
        'what the dub is mixed over: duck (the original, lowered under each dubbed sentence), keep (the original, low throughout) or drop (the dub alone); docs/background.md',
      ).choices(BACKGROUND_MODES),
    )
    .addOption(
      new Option(
        '--caption-rules <preset>',
        'the timed-text rules the captions are cut, timed and checked to: standard (17 characters a second), fast (20) or children (13); docs/captions.md',
      ).choices(CAPTION_PRESET_NAMES),
    )
    .addOption(
      new Option(
        '--loudness <preset>',
        'the delivery standard each mix is levelled and normalized to: web (-16 LUFS, the default), broadcast (EBU R128, -23), atsc (ATSC A/85, -24) or none; docs/audio.md',
      ).choices(LOUDNESS_PRESET_NAMES),
    )
    .option('--background-track <file>', 'your own music-and-effects track, as long as the video: it plays under the dub at full level instead of the original (upload only; docs/background.md)')
    .option('--voices <locale=voice,...>', 'the voice of some target locales, e.g. es_es=espeak:es+f3 (`dub voices <locale>` lists them; the others get their most natural voice)', voiceList)
    .option('--glossary <glossary-id>', 'a glossary of your workspace whose latest version the project pins (docs/glossaries.md)', glossaryId)
    .option(
      '--range <start-end>',
      'a preview: dub only this stretch, in seconds or minutes:seconds (30-90, 1:00-1:30), charged for its seconds only; to dub the whole video afterwards, run create again without --range (with --new for a file); docs/previews.md',
      rangeArgument,
    )
    .option('--new', 'create another project even when <video>.dub.json records one made from this file with these options (that one is then charged again)')
    .action(
      async (
        source: string,
        options: SourceOptions & {
          name?: string;
          maxSeconds?: number;
          concurrency: number;
          wait?: boolean;
          out: string;
          burnCaptions?: boolean;
          background?: BackgroundMode;
          backgroundTrack?: string;
          captionRules?: CaptionPreset;
          loudness?: LoudnessPreset;
          voices?: Record<string, string>;
          glossary?: string;
          range?: SourceRange;
          new?: boolean;
        },
      ) => {
        // A file with a ceiling given need not be probed.
        const plan = await planSource(ctx, source, options.maxSeconds === undefined && !/^https?:/i.test(source));
        if (options.backgroundTrack && plan.kind !== 'upload') throw new UsageError('--background-track goes with a video file: it is uploaded beside it.');
        const trackFile = options.backgroundTrack ? path.resolve(ctx.cwd, options.backgroundTrack) : undefined;
        const track = trackFile ? { file_name: path.basename(trackFile), size_bytes: fileSize(trackFile) } : undefined;
        checkRangeWithin(plan, options.range);
        const request = (): CreateProjectRequest => ({
          name: (options.name ?? plan.name).slice(0, 100),
          source_locale: options.from,
          target_locales: options.to,
          max_billable_seconds: ceilingFor(plan, options.maxSeconds, options.range),
          source: plan.kind === 'upload' ? { type: 'upload', file_name: path.basename(plan.file), size_bytes: plan.sizeBytes } : { type: 'youtube', url: plan.url },
          ...(options.burnCaptions ? { video: { burned_captions: true } } : {}),
          ...(options.background ? { background: options.background } : {}),
          ...(track ? { background_track: track } : {}),
          ...(options.captionRules ? { caption_rules: options.captionRules } : {}),
          ...(options.loudness ? { loudness: options.loudness } : {}),
          ...(options.voices ? { voices: options.voices } : {}),
          ...(options.glossary ? { glossary: { id: options.glossary } } : {}),
          ...(options.range ? { range: options.range } : {}),
        });
        let projectId: string;
        if (plan.kind === 'upload') {
          projectId = await uploadVideo(ctx, plan.file, { concurrency: options.concurrency, request: request(), startNew: options.new === true, backgroundTrack: trackFile });
        } else {
          // No state file for a URL: a rerun would create (and charge) another project, so a
          // Ctrl-C from here on points to `dub wait` only.
          const project = await ctx.client().createProject(request());
          ctx.out.line(`Created project ${project.id} (${project.name}), ${project.status}.`);
          projectId = project.id;
        }
        if (!options.wait) {
          ctx.out.line(`Follow it with: dub wait ${projectId} (or dub status ${projectId})`);
          return;
        }
        await followProject(ctx, projectId, path.resolve(ctx.cwd, options.out), plan.kind === 'upload' ? 'run the same command again' : undefined);
      },
    );
}
